import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger, type Logger, silentLogger } from '../../src/core/log.js';
import { type Engram, openEngram } from '../../src/engram.js';
import { type RunningServer, startHttpServer } from '../../src/http/server.js';
import { createTestDatabase, type Driver, type TestDatabase } from './drivers.js';

export interface TestServer {
  driver: Driver;
  engram: Engram;
  url: string;
  database: TestDatabase;
  /** A fresh API key for tenant (v2 unless said otherwise). */
  key(tenant?: string, apiVersion?: 'v1' | 'v2'): Promise<string>;
  /** fetch against the server with a JSON body and optional bearer key. */
  call(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  const dir = mkdtempSync(join(tmpdir(), 'engram-test-'));
  return loadConfig({ ENGRAM_PORT: '0', ENGRAM_DATA_DIR: dir, ENGRAM_LOG_LEVEL: 'silent', ...overrides });
}

/** An engram with its HTTP listener on a loopback port, over a fresh database of driver. */
export async function startTestServer(
  driver: Driver,
  env: Record<string, string> = {},
  opts: {
    log?: Logger;
    /** A second engram on the database of this one (which keeps owning the database). */
    beside?: TestServer;
  } = {},
): Promise<TestServer> {
  const beside = opts.beside;
  const database = beside?.database ?? (await createTestDatabase(driver));
  const config = testConfig(env);
  // ENGRAM_TEST_LOG=debug shows the server's log while debugging a test
  const log =
    opts.log ??
    (process.env['ENGRAM_TEST_LOG'] ? createLogger(process.env['ENGRAM_TEST_LOG'] as 'debug') : silentLogger);
  const engram = await openEngram(config, { command: 'test', log, db: database.db, prepareSearch: true });
  let server: RunningServer;
  try {
    server = await startHttpServer(engram);
  } catch (err) {
    await engram.close();
    if (!beside) await database.drop();
    throw err;
  }
  const call: TestServer['call'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key) headers['authorization'] = `Bearer ${opts.key}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(server.url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // leave as text
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  return {
    driver,
    engram,
    url: server.url,
    database,
    key: async (tenant = 'tenant-a', apiVersion = 'v2') => (await engram.keys.create(tenant, apiVersion)).key,
    call,
    close: async () => {
      await server.close();
      await engram.close();
      if (!beside) await database.drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** Adds one session's messages over REST (synchronously) and flushes it, so they are extracted. */
export async function addAndFlush(s: TestServer, key: string, session_id: string, messages: unknown[]) {
  const add = await s.call('POST', '/api/v2/memory/add', { key, body: { session_id, messages } });
  if (add.status !== 200) throw new Error(`add ${session_id}: ${add.status} ${JSON.stringify(add.body)}`);
  const flush = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id } });
  if (flush.status !== 200)
    throw new Error(`flush ${session_id}: ${flush.status} ${JSON.stringify(flush.body)}`);
  return add.body.data;
}

/** POST /api/v2/memory/search as `user_id`, expecting 200; the answer's data. */
export function searcher(s: () => TestServer, key: () => string, user_id: string) {
  return async (body: Record<string, unknown>) => {
    const r = await s().call('POST', '/api/v2/memory/search', { key: key(), body: { user_id, ...body } });
    if (r.status !== 200) throw new Error(`search: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
}

/** The best-scored atomic fact of a search answer, over every episode returned ('' when none). */
export const topFact = (data: any): string =>
  data.episodes.flatMap((e: any) => e.atomic_facts).sort((a: any, b: any) => b.score - a.score)[0]?.content ??
  '';
