import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, multiParty, T0, user } from '../helpers/messages.js';

/**
 * The web inspector in a real headless Chromium (Debian's `chromium`, driven by
 * playwright-core; .ci/run installs it): connect with a key, browse an owner's episodes
 * and their source messages, rate, edit, search side by side, list tasks, delete.
 * ENGRAM_UI_SCREENSHOT=path saves a picture of the page along the way.
 */
const HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">';

describe.each(DRIVERS)('web inspector in Chromium [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let browser: Browser;
  let page: Page;
  let dialogs: string[];

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'harbour',
        messages: [
          user('wren', 'I repaired the mast of my sailing dinghy at the harbour this morning', T0, 'Wren'),
          user('wren', `The varnish label said ${HOSTILE} which made me laugh`, T0 + MIN, 'Wren'),
        ],
      },
    });
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'harbour' } });
    await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'later',
        messages: [user('wren', 'Tomorrow I will sand the dinghy hull', T0 + 60 * MIN, 'Wren')],
      },
    });
    await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 'trip', messages: multiParty(T0 + 2 * 60 * MIN) },
    });
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'trip' } });
    ({ browser, page, dialogs } = await launchBrowser());
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const status = () => page.locator('#status');

  it('refuses a wrong key, then connects and lists the owners', async () => {
    await page.goto(`${s.url}/ui`);
    await page.fill('#key', 'engram_wrong');
    await page.click('#key-form button[type=submit]');
    await expect.poll(() => status().textContent()).toBe('The key was refused.');
    expect(await page.evaluate(() => (globalThis as any).sessionStorage.length)).toBe(0);
    await page.fill('#key', key);
    await page.click('#key-form button[type=submit]');
    await expect.poll(() => status().textContent()).toBe('Connected.');
    await page.locator('#owners button', { hasText: 'wren' }).waitFor();
    // the key lives in this tab's session storage: a reload reconnects, a new tab does not
    await page.reload();
    await page.locator('#owners button', { hasText: 'wren' }).waitFor();
    const other = await browser.newPage();
    await other.goto(`${s.url}/ui`);
    expect(await other.locator('#tabs').isHidden()).toBe(true);
    await other.close();
  });

  it("shows an owner's episodes with facts and source messages, as text", async () => {
    await page.locator('#owners button', { hasText: 'wren' }).click();
    const card = page.locator('article.episode').first();
    await card.waitFor();
    expect(await page.locator('#items h2').textContent()).toContain('· 1 episode');
    await card.locator('button.link', { hasText: /^2 source messages$/ }).click();
    const sources = card.locator('.sources').last();
    await sources.locator('.message').nth(1).waitFor();
    expect(await sources.locator('.message p').allTextContents()).toEqual([
      'I repaired the mast of my sailing dinghy at the harbour this morning',
      `The varnish label said ${HOSTILE} which made me laugh`,
    ]);
    expect(await sources.locator('.message .meta').first().textContent()).toContain('Wren (user)');
    expect(await page.locator('#items').textContent()).not.toMatch(/\b(null|undefined)\b/);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).document.body.dataset.pwned)).toBeUndefined();
    if (process.env['ENGRAM_UI_SCREENSHOT'] && driver === 'pglite')
      await page.screenshot({ path: process.env['ENGRAM_UI_SCREENSHOT'] });
  });

  it('shows profiles item by item and agent cases, with their sources', async () => {
    for (const [kind, owner, cls] of [
      ['profile', 'alice', 'profile'],
      ['cases', 'helper-bot', 'agent_case'],
    ] as const) {
      const api = await s.call('GET', `/api/v2/inspect/owners?kind=${kind}`, { key });
      expect(
        api.body.data.items.map((o: any) => o.owner),
        kind,
      ).toContain(owner);
      await page.selectOption('#kind', kind);
      await page.locator('#owners button', { hasText: owner }).click();
      const card = page.locator(`article.${cls}`).first();
      await card.waitFor();
      await card.locator('button.link').first().click();
      await card.locator('.sources .message').first().waitFor();
      expect(await page.locator('#items').textContent()).not.toMatch(/\b(null|undefined)\b/);
      if (kind !== 'profile') continue;
      const items = page.locator('article.profile li[data-item-id]');
      expect(await items.count()).toBeGreaterThan(0);
      await items.first().locator('button[title="Rate positive"]').click();
      await expect.poll(() => status().textContent()).toBe('Rated positive.');
    }
  });

  it('rates and edits an episode through the API', async () => {
    await page.selectOption('#kind', 'episodes');
    await page.locator('#owners button', { hasText: 'wren' }).click();
    const card = page.locator('article.episode').first();
    await card.waitFor();
    const id = await card.getAttribute('data-id');
    await card.locator('.actions button[title="Rate negative"]').click();
    await expect.poll(() => status().textContent()).toBe('Rated negative.');
    const rows = await s.engram.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM feedback WHERE memory_id = $1 AND rating = $2',
      [id, 'negative'],
    );
    expect(rows[0]!.n).toBe(1);

    await card.locator('.actions button', { hasText: 'Edit' }).click();
    await card.locator('form.edit input[name=subject]').fill('Mast repair on the dinghy');
    await card.locator('form.edit button[type=submit]').click();
    await expect.poll(() => status().textContent()).toBe('Episode saved.');
    await expect
      .poll(() => page.locator('article.episode h3').first().textContent())
      .toContain('Mast repair on the dinghy');
    const got = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'wren' },
    });
    expect(got.body.data.episodes[0]).toMatchObject({ id, subject: 'Mast repair on the dinghy' });
    expect(got.body.data.episodes[0].edited_at).toBeTruthy();
  });

  it("shows each search method's hits side by side with scores", async () => {
    await page.click('#tabs button[data-tab=search]');
    await page.fill('#search-form input[name=owner]', 'wren');
    await page.fill('#search-form input[name=query]', 'dinghy mast');
    await page.click('#search-form button[type=submit]');
    await expect.poll(() => status().textContent()).toBe('Searched with keyword, vector, hybrid.');
    const columns = page.locator('#search-results .column');
    expect(await columns.locator('h3').allTextContents()).toEqual(['keyword', 'vector', 'hybrid']);
    for (const method of ['keyword', 'vector', 'hybrid']) {
      const col = page.locator(`#search-results [data-method=${method}]`);
      expect(await col.locator('.meta').first().textContent()).toMatch(/^ran \w+/);
      const kinds = await col.locator('.hits .kind').allTextContents();
      expect(kinds, method).toContain('episode');
      // the later session is not extracted yet: found as an unprocessed message
      if (method === 'keyword') expect(kinds).toContain('message');
      for (const score of await col.locator('.hits .score').allTextContents())
        expect(Number(score), method).toBeGreaterThan(0);
    }
  });

  it('lists the tasks with their state, as the API does', async () => {
    await page.click('#tabs button[data-tab=tasks]');
    const api = await s.call('GET', '/api/v2/tasks?page_size=100', { key });
    expect(api.body.data.items.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#task-list tbody tr').count()).toBe(api.body.data.items.length);
    expect(await page.locator('#task-list tbody tr td:nth-child(2)').allTextContents()).toEqual(
      api.body.data.items.map((t: any) => t.id),
    );
    expect(await page.locator('#task-stats').textContent()).toContain('success');
  });

  it('deletes an episode after a confirmation', async () => {
    await page.click('#tabs button[data-tab=memories]');
    await page.locator('#owners button', { hasText: 'wren' }).click();
    const card = page.locator('article.episode').first();
    await card.waitFor();
    await card.locator('.actions button', { hasText: 'Delete' }).click();
    await expect.poll(() => status().textContent()).toBe('Episode deleted.');
    expect(dialogs.at(-1)).toContain('Mast repair on the dinghy');
    await expect.poll(() => page.locator('article.episode').count()).toBe(0);
    const got = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'wren' },
    });
    expect(got.body.data.total_count).toBe(0);
  });
});
