import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';

describe.each(DRIVERS)('HTTP listener and auth [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer(driver, {
      ENGRAM_RATE_LIMIT_RPS: '1',
      ENGRAM_RATE_LIMIT_BURST: '1000',
      ENGRAM_MAX_BODY_BYTES: '2048',
      ENGRAM_AUTH_CACHE_MS: '200',
    });
    key = await s.key('t1');
  });
  afterAll(() => s.close());

  it('serves /health without a key', async () => {
    const r = await s.call('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', driver });
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('answers 401 without a key, with a malformed key and with an unknown key', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer egm_0000000000000000_' + 'a'.repeat(43) },
    ];
    for (const headers of variants) {
      const r = await s.call('POST', '/api/v2/memory/get', { headers, body: {} });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: 'Unauthorized', status_code: 401 });
      expect(r.body.request_id).toBe(r.headers.get('x-request-id'));
    }
  });

  it('lets a valid key through to routing', async () => {
    const r = await s.call('GET', '/api/v2/no-such-route', { key });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 'NotFound', type: 'NotFound', status_code: 404 });
  });

  it('answers 403 to a key of the other API version', async () => {
    const v1 = await s.key('t1', 'v1');
    const r = await s.call('POST', '/api/v2/memory/get', { key: v1, body: {} });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('Forbidden');
    const r2 = await s.call('POST', '/api/v1/memories', { key, body: {} });
    expect(r2.status).toBe(403);
  });

  it('rejects a revoked key', async () => {
    const k = await s.key('t1');
    expect((await s.call('GET', '/api/v2/x', { key: k })).status).toBe(404);
    await s.engram.keys.revoke(k);
    // the verification cache lives at most ENGRAM_AUTH_CACHE_MS (200 ms here)
    await new Promise((r) => setTimeout(r, 300));
    expect((await s.call('GET', '/api/v2/x', { key: k })).status).toBe(401);
  });

  it('answers 410 on the retired v0 API and echoes a caller request id', async () => {
    const r = await s.call('POST', '/api/v0/memories', { body: {}, headers: { 'x-request-id': 'abc-123' } });
    expect(r.status).toBe(410);
    expect(r.body).toMatchObject({ code: 'Gone', request_id: 'abc-123' });
    expect(r.headers.get('x-request-id')).toBe('abc-123');
  });

  it('answers 413 past the body size limit', async () => {
    const r = await s.call('POST', '/api/v2/memory/add', { key, body: { pad: 'x'.repeat(4096) } });
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'PayloadTooLarge', status_code: 413 });
  });

  it('answers 429 with Retry-After past the per-key rate', async () => {
    const burst = await startTestServer(driver, {
      ENGRAM_RATE_LIMIT_RPS: '0.01',
      ENGRAM_RATE_LIMIT_BURST: '3',
    });
    try {
      const k = await burst.key('t-rate');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await burst.call('GET', '/api/v2/x', { key: k })).status);
      expect(statuses.slice(0, 3)).toEqual([404, 404, 404]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      const r = await burst.call('GET', '/api/v2/x', { key: k });
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.body.code).toBe('RateLimited');
      // another key has its own bucket
      expect((await burst.call('GET', '/api/v2/x', { key: await burst.key('t-rate') })).status).toBe(404);
    } finally {
      await burst.close();
    }
  });
});
