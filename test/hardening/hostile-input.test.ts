import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperation } from '../../src/http/routes/operation.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';

/** JSON text nested `depth` objects deep (JSON.stringify itself would overflow the stack). */
const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedFilter = (depth: number): unknown => {
  let v: unknown = { session_id: 's' };
  for (let i = 0; i < depth; i++) v = { AND: [v] };
  return v;
};
const msg = (timestamp: unknown) => ({
  sender_id: 'u1',
  role: 'user',
  timestamp,
  content: 'I moved to Lyon',
});

describe.each(DRIVERS)('hostile input gets 4xx in the envelope, never 5xx [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let postRoutes: string[];
  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_RATE_LIMIT_RPS: '10000', ENGRAM_RATE_LIMIT_BURST: '10000' });
    key = await s.key('hostile');
    const doc = (await s.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    postRoutes = Object.entries(doc.paths)
      .filter(([, ops]) => 'post' in ops)
      .map(([p]) => p)
      .filter((p) => findOperation('post', p)?.body);
    expect(postRoutes.length).toBeGreaterThan(3);
  });
  afterAll(() => s.close());

  it('refuses a body nested 5,000 deep on every POST route with 422', async () => {
    const body = nested(5000);
    const v1Key = await s.key('hostile', 'v1');
    for (const path of postRoutes) {
      const r = await s.call('POST', path, { key: path.startsWith('/api/v1/') ? v1Key : key, body });
      if (findOperation('post', path)?.envelope) {
        // object/sign answers the hosted envelope: HTTP 200, status 2018 (invalid parameters)
        expect(r.status, path).toBe(200);
        expect(r.body.status, path).toBe(2018);
        continue;
      }
      expect(r.status, path).toBe(422);
      expect(r.body.code, path).toBe('InvalidParameter');
    }
  });

  it('refuses a filter nested 1,000 deep on get and search with 422', async () => {
    const get = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'u1', filters: nestedFilter(1000) },
    });
    expect(get.status).toBe(422);
    const search = await s.call('POST', '/api/v2/memory/search', {
      key,
      body: { query: 'x', user_id: 'u1', filters: nestedFilter(1000) },
    });
    expect(search.status).toBe(422);
  });

  it('answers a NUL in a path id with 422, not a database error', async () => {
    const r = await s.call('GET', '/api/v2/tasks/%00', { key });
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('InvalidParameter');
  });

  it('refuses timestamp filter values that are not representable dates', async () => {
    for (const timestamp of [
      { gte: 1e300 },
      { lt: '99999999999999999999' },
      '+275760-09-13T00:00:00.000Z',
      { in: [-1e20] },
    ]) {
      const r = await s.call('POST', '/api/v2/memory/get', {
        key,
        body: { memory_type: 'episode', user_id: 'u1', timestamp },
      });
      expect(r.status, JSON.stringify(timestamp)).toBe(422);
      const f = await s.call('POST', '/api/v2/memory/search', {
        key,
        body: { query: 'x', user_id: 'u1', filters: { timestamp } },
      });
      expect(f.status, JSON.stringify(timestamp)).toBe(422);
    }
    const ok = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: {
        memory_type: 'episode',
        user_id: 'u1',
        timestamp: { gte: 1767225600000, lt: '2030-01-01T00:00:00Z' },
      },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses task windows outside the representable range', async () => {
    for (const q of [
      'start=%2B275760-09-13T00:00:00.000Z',
      'end=-271821-04-20T00:00:00Z',
      'start=0000-01-01T00:00:00Z',
      'start=tomorrow',
    ]) {
      for (const path of ['/api/v2/tasks', '/api/v2/tasks/stats']) {
        const r = await s.call('GET', `${path}?${q}`, { key });
        expect(r.status, `${path}?${q}`).toBe(422);
      }
    }
    const ok = await s.call('GET', '/api/v2/tasks/stats?start=2026-01-01T00:00:00Z', { key });
    expect(ok.status).toBe(200);
  });

  it('refuses a message timestamp past the date range and stores nothing', async () => {
    const r = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 'far', messages: [msg(9_000_000_000_000_000)] },
    });
    expect(r.status).toBe(422);
    expect(r.body.param ?? r.body.detail[0].loc.join('.')).toContain('timestamp');
    const rows = await s.engram.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages');
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it('takes a lone UTF-16 surrogate in any string as U+FFFD: written and filtered on, never a 5xx', async () => {
    const add = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 'lone', messages: [msg(1767225600000), msg(1767225660000)] },
    });
    expect(add.status).toBeLessThan(300);
    const flush = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'lone' } });
    expect(flush.status).toBe(200);
    const read = (filters?: object) =>
      s.call('POST', '/api/v2/memory/get', {
        key,
        body: { memory_type: 'episode', user_id: 'u1', ...(filters ? { filters } : {}) },
      });
    const id = (await read()).body.data.episodes[0].id as string;
    for (const change of ['bind', 'replace']) {
      const r = await s.call('POST', `/api/v2/memory/tag/${change}`, {
        key,
        body: { memory_type: 'episode', memory_ids: [id], tags: ['lone \ud800', '\udc00'] },
      });
      expect(r.status, change).toBe(200);
    }
    const tagged = await read({ tags: 'lone \ud800' });
    expect(tagged.status).toBe(200);
    expect(tagged.body.data.episodes.map((e: any) => e.tags)).toEqual([['lone \ufffd', '\ufffd']]);
  });

  it('answers a request line over 16 KB with 431 in the envelope of its path', async () => {
    const long = 'x'.repeat(20_000);
    for (const [path, tasks] of [
      [`/api/v2/tasks/${long}`, true],
      [`/api/v2/memory/get?x=${long}`, false],
    ] as const) {
      const res = await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(431);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^req_/);
      const body = (await res.json()) as any;
      expect(body.request_id).toBe(id);
      if (tasks)
        expect(body.error).toMatchObject({ code: 'HeaderTooLarge', type: 'RequestHeaderFieldsTooLarge' });
      else expect(body).toMatchObject({ code: 'HeaderTooLarge', status_code: 431 });
    }
  });

  it('keeps a 431 answer readable while the client still sends its body, instead of resetting', async () => {
    const { port } = new URL(s.url);
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const sock = connect(Number(port), '127.0.0.1');
        let text = '';
        let error = '';
        const closed = new Promise<void>((resolve) => sock.once('close', () => resolve()));
        sock.on('error', (err) => (error ||= err.message));
        await once(sock, 'connect');
        sock.pause(); // the answer is not read while the body goes on
        sock.write(
          `PATCH /api/v2/memory/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
            `Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"pad":"`,
        );
        for (let i = 0; i < 5 && !sock.destroyed; i++) {
          await new Promise((r) => setTimeout(r, 100));
          if (!sock.destroyed) sock.write('x'.repeat(50_000));
        }
        sock.on('data', (d) => (text += d));
        sock.resume();
        sock.end();
        await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
        sock.destroy();
        return `${text}${error ? `|${error}` : ''}`;
      }),
    );
    for (const a of answers) expect(a).toMatch(/^HTTP\/1\.1 431 [^|]*"HeaderTooLarge"[^|]*$/);
  }, 60_000);

  it('answers a wrong method on a route with 405 and Allow', async () => {
    const r = await s.call('GET', '/api/v2/memory/add', { key });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body.code).toBe('MethodNotAllowed');
    const t = await s.call('DELETE', '/api/v2/tasks/abc', { key });
    expect(t.status).toBe(405);
    expect(t.headers.get('allow')).toBe('GET, HEAD');
    expect((await s.call('GET', '/api/v2/no-such-route', { key })).status).toBe(404);
  });

  it('reads a large body before answering 401 or 403, so the connection stays usable', async () => {
    const body = JSON.stringify({ session_id: 's', pad: 'x'.repeat(300_000) });
    const v1 = await s.key('hostile', 'v1');
    for (let i = 0; i < 10; i++) {
      const bad = await s.call('POST', '/api/v2/memory/add', {
        body,
        headers: { authorization: 'Bearer egm_0000000000000000_' + 'a'.repeat(43) },
      });
      expect(bad.status).toBe(401);
      const wrong = await s.call('POST', '/api/v2/memory/add', { key: v1, body });
      expect(wrong.status).toBe(403);
    }
  });

  it('reads a large body before any other refusal (404, 405, a bad path id), so the connection stays usable', async () => {
    const body = JSON.stringify({ title: 't', pad: 'x'.repeat(300_000) });
    const key = await s.key('hostile');
    for (let i = 0; i < 10; i++) {
      expect((await s.call('POST', '/api/v2/no/such/route', { key, body })).status).toBe(404);
      expect((await s.call('PUT', '/api/v2/memory/add', { key, body })).status).toBe(405);
      expect((await s.call('PATCH', '/api/v2/knowledge_bases/kb/documents/%00', { key, body })).status).toBe(
        422,
      );
    }
  });
});
