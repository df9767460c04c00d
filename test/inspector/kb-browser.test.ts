import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { createKb, ingest, MANUAL, MANUAL_TITLE } from '../kb/fixture.js';

/**
 * Knowledge bases in the web inspector, in a real headless Chromium (Debian's `chromium`,
 * driven by playwright-core): the tenant's knowledge bases only, categories and documents,
 * a document's topic tree with each topic's content and tags (edited through tag/replace),
 * ingest from the page with its task's progress, keyword / vector / hybrid hits side by side
 * as the API ranks them, deletion after a confirmation. Hostile text stays text.
 * ENGRAM_UI_SCREENSHOT_KB=path saves a picture of the page along the way.
 */
const HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1">';
const QUERY = 'drum fire smoke: cut the gas and close the exhaust damper';
const NOTE = `# Grinder burrs\n\nReplace the grinder burrs every 400 kg. The burr label reads ${HOSTILE} in small print.`;

describe.each(DRIVERS)('knowledge bases in the web inspector [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let kb: string;
  let manual: string;
  let browser: Browser;
  let page: Page;
  let otherKb: string;
  let dialogs: string[];
  const status = () => page.locator('#status');
  /** Submits the ingest form and waits for the line of a new task that succeeded. */
  const submitIngest = async () => {
    const line = () => page.locator('#kb-ingest .progress').textContent();
    const before = await line();
    await page.locator('#kb-ingest button[type=submit]').click();
    await expect
      .poll(
        async () => {
          const now = await line();
          return now !== before && / success/.test(now ?? '') ? 'done' : now;
        },
        { timeout: 60_000 },
      )
      .toBe('done');
  };
  const kbApi = (path: string) => s.call('GET', `/api/v2/knowledge_bases/${kb}${path}`, { key });

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    kb = await createKb(s, key, 'Roastery');
    const category = await s.call('POST', `/api/v2/knowledge_bases/${kb}/categories`, {
      key,
      body: { name: 'Manuals' },
    });
    await s.call('POST', `/api/v2/knowledge_bases/${kb}/categories`, { key, body: { name: 'Recipes' } });
    manual = await ingest(s, key, kb, MANUAL_TITLE, MANUAL, { category_id: category.body.data.id });
    const other = await s.key('tenant-b');
    otherKb = await createKb(s, other, 'Bakery secrets');
    ({ browser, page, dialogs } = await launchBrowser());
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it("lists only the tenant's knowledge bases, with their categories and documents", async () => {
    await page.goto(`${s.url}/ui`);
    await page.fill('#key', key);
    await page.click('#key-form button[type=submit]');
    await expect.poll(() => status().textContent()).toBe('Connected.');
    await page.click('#tabs button[data-tab=kb]');
    await page.locator('#kbs button', { hasText: 'Roastery' }).waitFor();
    expect(await page.locator('#kbs button').allTextContents()).toEqual(['Roastery 1 doc']);
    // another tenant's knowledge base is neither listed nor readable with this key
    const foreign = await page.evaluate(
      async (id) =>
        (
          await fetch(`/api/v2/knowledge_bases/${id}`, {
            headers: {
              authorization: `Bearer ${(globalThis as any).sessionStorage.getItem('engram.inspector.key')}`,
            },
          })
        ).status,
      otherKb,
    );
    expect(foreign).toBe(404);

    await page.locator('#kbs button', { hasText: 'Roastery' }).click();
    await page.locator('#kb-docs').waitFor();
    expect(await page.locator('#kb-view h2').textContent()).toContain('Roastery 1 document');
    expect(await page.locator('nav.categories button').allTextContents()).toEqual([
      'All',
      'Manuals (1)',
      'Recipes (0)',
    ]);
    const docs = (await kbApi('/documents')).body.data.documents;
    const row = page.locator(`#kb-docs tr[data-doc-id="${manual}"]`);
    expect(await row.locator('td').allTextContents()).toEqual(
      expect.arrayContaining([MANUAL_TITLE, 'Manuals', docs[0].status, String(docs[0].topic_count)]),
    );
    await page.locator('nav.categories button', { hasText: 'Recipes' }).click();
    await page.locator('#kb-view .empty', { hasText: 'No documents here yet.' }).waitFor();
    await page.locator('nav.categories button', { hasText: 'All' }).click();
    await row.waitFor();
  });

  it("shows a document's topic tree, a topic's content and tags, and edits the tags", async () => {
    await page.locator(`#kb-docs tr[data-doc-id="${manual}"] button.link`).click();
    const tree = page.locator('#kb-doc ul.topics');
    await tree.waitFor();
    const topics = (await kbApi(`/documents/${manual}/topics`)).body.data.topics;
    expect(await tree.locator('li').count()).toBe(topics.length);
    const fire = topics.find((t: any) => t.name === 'Fire in the drum');
    const safety = topics.find((t: any) => t.name === 'Safety');
    // nested as in the API: the topic sits in its parent's list
    const node = page.locator(`li[data-topic-id="${safety.id}"] > ul > li[data-topic-id="${fire.id}"]`);
    await node.locator('button.topic').click();
    const detail = node.locator('.topic-detail');
    await detail.locator('pre.content').waitFor();
    expect(await detail.locator('pre.content').textContent()).toContain(
      'Never open the drum door during a drum fire',
    );
    await detail.locator('input[name=tag_ids]').fill('safety, fire');
    await detail.locator('button[type=submit]').click();
    await expect.poll(() => status().textContent()).toBe('Tags saved (2).');
    const got = (await kbApi(`/documents/${manual}/topics/${fire.id}`)).body.data;
    expect(got.tag_ids).toEqual(['safety', 'fire']);
    // the topic is read again after the save: wait for the new version, not for the input
    // (it already holds the typed tags before the re-read replaces it)
    await expect.poll(() => detail.locator('small').last().textContent()).toContain(`version ${got.version}`);
    expect(await detail.locator('input[name=tag_ids]').inputValue()).toBe('safety, fire');
  });

  it('ingests a document from the page, following its task, and shows hostile text as text', async () => {
    const form = page.locator('#kb-ingest');
    await form.locator('input[name=title]').fill(`Burrs ${HOSTILE}`);
    await form.locator('select[name=category_id]').selectOption({ label: 'Manuals' });
    await form.locator('textarea[name=text]').fill(NOTE);
    await submitIngest();
    expect(await page.locator('#kb-ingest .progress').textContent()).toMatch(
      /^Task \S+: success · (\d+)\/\1 topics$/,
    );
    const docs = (await kbApi('/documents')).body.data.documents;
    const burrs = docs.find((d: any) => d.title.startsWith('Burrs'));
    expect(burrs).toMatchObject({ title: `Burrs ${HOSTILE}`, category_name: 'Manuals' });
    const row = page.locator(`#kb-docs tr[data-doc-id="${burrs.id}"]`);
    await row.waitFor();
    await row.locator('button.link').click();
    const topic = page.locator('#kb-doc li[data-type=section] button.topic', { hasText: 'Grinder burrs' });
    await topic.click();
    await expect
      .poll(() => page.locator('#kb-doc .topic-detail pre.content').first().textContent())
      .toContain(`The burr label reads ${HOSTILE}`);
    expect(await page.locator('#kb-doc h3').first().textContent()).toContain(`Burrs ${HOSTILE}`);

    // a file from the disk takes the same path (its bytes in base64)
    await form.locator('input[name=title]').fill('Descaling');
    await form.locator('input[name=file]').setInputFiles({
      name: 'descaling.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from('# Descaling\n\nDescale the espresso boiler monthly with citric acid.'),
    });
    await submitIngest();
    const after = (await kbApi('/documents')).body.data.documents;
    expect(after.find((d: any) => d.title === 'Descaling')).toMatchObject({ source_name: 'descaling.md' });
    await page.locator('#kb-docs button.link', { hasText: 'Descaling' }).waitFor();

    const shown = await page.locator('#kb-view').textContent();
    expect(shown).not.toContain('null');
    expect(shown).not.toContain('undefined');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as any).document.body.dataset.pwned)).toBeUndefined();
  });

  it("shows each method's topic hits side by side, ranked and scored as the API does", async () => {
    const form = page.locator('#kb-search-form');
    await form.locator('input[name=query]').fill(QUERY);
    await form.locator('button[type=submit]').click();
    await expect.poll(() => status().textContent()).toBe('Searched with keyword, vector, hybrid.');
    const columns = page.locator('#kb-search-results .column');
    expect(await columns.locator('h3').allTextContents()).toEqual(['keyword', 'vector', 'hybrid']);
    for (const method of ['keyword', 'vector', 'hybrid']) {
      const api = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, {
        key,
        body: { query: QUERY, method, top_k: 10 },
      });
      const hits = api.body.data.hits;
      expect(hits[0].name, method).toBe('Fire in the drum');
      const col = page.locator(`#kb-search-results [data-method=${method}]`);
      expect(await col.locator('.hits b').allTextContents(), method).toEqual(hits.map((x: any) => x.name));
      expect(await col.locator('.hits .score').allTextContents(), method).toEqual(
        hits.map((x: any) => x.score.toFixed(3)),
      );
      expect(await col.locator('.hits .kind').allTextContents()).toEqual(hits.map(() => method));
      expect(await col.locator('.hits li').first().locator('small').textContent()).toBe(
        ` in ${MANUAL_TITLE} · safety, fire`,
      );
    }
    if (process.env['ENGRAM_UI_SCREENSHOT_KB'] && driver === 'pglite') {
      await page.locator(`#kb-docs tr[data-doc-id="${manual}"] button.link`).click();
      await page.locator('#kb-doc button.topic', { hasText: 'Fire in the drum' }).click();
      await page.locator('#kb-doc .topic-detail pre.content').waitFor();
      await page.screenshot({
        path: process.env['ENGRAM_UI_SCREENSHOT_KB'],
        fullPage: true,
        clip: { x: 0, y: 0, width: 1280, height: 1800 },
      });
    }
  });

  it('deletes a document after a confirmation', async () => {
    const docs = (await kbApi('/documents')).body.data.documents;
    const descaling = docs.find((d: any) => d.title === 'Descaling');
    await page.locator(`#kb-docs tr[data-doc-id="${descaling.id}"] button.danger`).click();
    await expect.poll(() => status().textContent()).toBe('Document deleted.');
    expect(dialogs.at(-1)).toContain('Descaling');
    await expect.poll(() => page.locator(`#kb-docs tr[data-doc-id="${descaling.id}"]`).count()).toBe(0);
    expect((await kbApi(`/documents/${descaling.id}`)).status).toBe(404);
  });

  it('creates a knowledge base from the page and opens it', async () => {
    await page.fill('#kb-create input[name=name]', 'Tasting notes');
    await page.click('#kb-create button[type=submit]');
    await expect.poll(() => status().textContent()).toBe('Knowledge base "Tasting notes" created.');
    await expect.poll(() => page.locator('#kb-view h2').textContent()).toContain('Tasting notes 0 documents');
    const list = await s.call('GET', '/api/v2/knowledge_bases', { key });
    expect(list.body.data.knowledge_bases.map((k: any) => k.name).sort()).toEqual([
      'Roastery',
      'Tasting notes',
    ]);
    expect((await page.locator('#kbs button').allTextContents()).sort()).toEqual([
      'Roastery 2 docs',
      'Tasting notes 0 docs',
    ]);
  });
});
