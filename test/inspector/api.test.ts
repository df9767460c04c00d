import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';

/** The inspector's JSON reads (/api/v2/inspect/*) and its page (/ui), over real HTTP. */
describe.each(DRIVERS)('inspector API [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let ids: string[];
  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    const add = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'kiln',
        messages: [
          user('odile', 'I fired my first stoneware bowls in the kiln on Saturday', T0, 'Odile'),
          user('odile', 'The celadon glaze crackled beautifully on two of them', T0 + MIN, 'Odile'),
        ],
      },
    });
    ids = add.body.data.message_ids;
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'kiln' } });
    const other = await s.key('tenant-b');
    await s.call('POST', '/api/v2/memory/add', {
      key: other,
      body: {
        app_id: 'studio',
        session_id: 'elsewhere',
        messages: [user('piet', 'I repaint old bicycles in my garage', T0, 'Piet')],
      },
    });
    await s.call('POST', '/api/v2/memory/flush', {
      key: other,
      body: { app_id: 'studio', session_id: 'elsewhere' },
    });
  });
  afterAll(() => s.close());

  it("lists the tenant's owners per kind, with their app and project, a page at a time", async () => {
    const r = await s.call('GET', '/api/v2/inspect/owners?kind=episodes', { key });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      items: [{ app_id: 'default', project_id: 'default', owner: 'odile' }],
      page: 1,
      page_size: 50,
    });
    const empty = await s.call('GET', '/api/v2/inspect/owners?kind=skills', { key });
    expect(empty.body.data.items).toEqual([]);
    const page2 = await s.call('GET', '/api/v2/inspect/owners?kind=episodes&page=2&page_size=1', { key });
    expect(page2.body.data).toEqual({ items: [], page: 2, page_size: 1 });
  });

  it("answers a memory's source messages by id, in conversation order, only the tenant's", async () => {
    const got = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'odile' },
    });
    const episode = got.body.data.episodes[0];
    expect(episode.source_message_ids.length).toBeGreaterThan(0);
    const r = await s.call(
      'GET',
      `/api/v2/inspect/messages?ids=${[...episode.source_message_ids].reverse().join(',')}`,
      { key },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.items.map((m: any) => m.id)).toEqual(
      ids.filter((id) => episode.source_message_ids.includes(id)),
    );
    expect(r.body.data.items[0]).toMatchObject({
      session_id: 'kiln',
      sender_id: 'odile',
      sender_name: 'Odile',
      role: 'user',
      content: 'I fired my first stoneware bowls in the kiln on Saturday',
      timestamp: new Date(T0).toISOString(),
    });
    const other = await s.key('tenant-b');
    const foreign = await s.call('GET', `/api/v2/inspect/messages?ids=${ids.join(',')}`, { key: other });
    expect(foreign.body.data.items).toEqual([]);
  });

  it('rejects bad reads with 422 in the v2 envelope, and needs a key', async () => {
    for (const [q, param] of [
      ['owners?kind=planets', 'kind'],
      ['owners?page=0', 'page'],
      ['owners?page_size=201', 'page_size'],
      ['owners?owner=x', ''],
      ['messages', 'ids'],
      ['messages?ids=', 'ids'],
      ['messages?ids=not-an-id', 'ids'],
      [`messages?ids=${Array.from({ length: 201 }, () => ids[0]).join(',')}`, 'ids'],
    ] as const) {
      const r = await s.call('GET', `/api/v2/inspect/${q}`, { key });
      expect(r.status, q).toBe(422);
      expect(r.body.code).toBe('InvalidParameter');
      if (param) expect(r.body.param, q).toMatch(new RegExp(`^${param}(\\[|$)`));
    }
    expect((await s.call('GET', '/api/v2/inspect/owners')).status).toBe(401);
  });

  it('serves the page and its assets without a key, under a strict content security policy', async () => {
    for (const [path, type] of [
      ['/ui', 'text/html'],
      ['/ui/', 'text/html'],
      ['/ui/inspector.js', 'text/javascript'],
      ['/ui/inspector.css', 'text/css'],
    ] as const) {
      const r = await s.call('GET', path);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toContain(type);
      expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const page = await s.call('GET', '/ui');
    expect(page.body).toContain('<script type="module" src="/ui/inspector.js">');
    expect((await s.call('GET', '/ui/secrets.js')).status).toBe(401);
  });
});
