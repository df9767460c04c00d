import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { isUnavailable, toEngramError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { type Engram, openEngram } from '../../src/engram.js';
import { type RunningServer, startHttpServer } from '../../src/http/server.js';
import {
  ADMIN_URL,
  createPostgresDatabase,
  createTestDatabase,
  DRIVERS,
  dropPostgresDatabase,
} from '../helpers/drivers.js';
import { proxied, type TcpProxy } from '../helpers/tcp-proxy.js';
import { waitFor } from '../helpers/wait.js';

describe.each(DRIVERS)('a statement the database refuses is not "unreachable" [%s]', (driver) => {
  it('too many bind parameters is an internal error, not a 503', async () => {
    const database = await createTestDatabase(driver);
    try {
      const params = Array.from({ length: 70_000 }, (_, i) => i);
      const err = await database.db
        .query(`SELECT 1 WHERE 0 IN (${params.map((_, i) => `$${i + 1}`).join(', ')})`, params)
        .catch((e: unknown) => e);
      // PGlite's backend refuses it (08P01, protocol_violation); postgres.js before sending it
      expect((err as { code?: unknown }).code).toBe(
        driver === 'pglite' ? '08P01' : 'MAX_PARAMETERS_EXCEEDED',
      );
      expect(isUnavailable(err)).toBe(false);
      expect(toEngramError(err)).toMatchObject({ code: 'InternalError', status: 500 });
      // the rest of class 08 still is
      expect(toEngramError(Object.assign(new Error('x'), { code: '08006' }))).toMatchObject({
        code: 'ServiceUnavailable',
        status: 503,
      });
    } finally {
      await database.drop();
    }
  });
});

// The database going away only happens to the server driver.
describe.skipIf(!ADMIN_URL)('database unreachable [postgres]', () => {
  let url: string;
  let proxy: TcpProxy;
  let engram: Engram;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    url = await createPostgresDatabase();
    const through = await proxied(url);
    proxy = through.proxy;
    const config = loadConfig({
      DATABASE_URL: through.url,
      ENGRAM_PORT: '0',
      ENGRAM_AUTH_CACHE_MS: '0',
      ENGRAM_LOG_LEVEL: 'silent',
    });
    engram = await openEngram(config, { command: 'test', log: silentLogger });
    server = await startHttpServer(engram);
    key = (await engram.keys.create('t1')).key;
  });
  afterAll(async () => {
    await server.close();
    await engram.close().catch(() => {});
    await proxy.stop();
    await dropPostgresDatabase(url);
  });

  it('answers 503 with Retry-After while the database is down, and recovers', async () => {
    const call = (path: string) => fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
    expect((await call('/api/v2/x')).status).toBe(404);
    const port = proxy.port;
    await proxy.stop();

    const r = await call('/api/v2/x');
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'ServiceUnavailable', status_code: 503 });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|postgres|at .*\.js/);
    expect((await fetch(`${server.url}/health`)).status).toBe(503);

    await proxy.start(port);
    expect((await call('/api/v2/x')).status).toBe(404);
  });

  it('answers 503 when the database resets the connection under a statement, not "client closed"', async () => {
    const call = (path: string) => fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
    expect((await call('/api/v2/tasks?page_size=1')).status).toBe(200);
    proxy.hold();
    const pending = call('/api/v2/tasks?page_size=1');
    await waitFor('a statement sent to the database', () => proxy.held > 0);
    proxy.resetClients();
    const r = await pending;
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect((await call('/api/v2/tasks?page_size=1')).status).toBe(200);
  });

  it('answers 503 to a request whose body was read when the database resets under it', async () => {
    const get = () =>
      fetch(`${server.url}/api/v2/memory/get`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ memory_type: 'episode', user_id: 'u1' }),
      });
    expect((await get()).status).toBe(200);
    proxy.hold();
    const pending = get();
    await waitFor('a statement sent to the database', () => proxy.held > 0);
    proxy.resetClients();
    const r = await pending;
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect((await get()).status).toBe(200);
  });
});
