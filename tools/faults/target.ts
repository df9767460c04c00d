/**
 * The server the fault tools (fuzz, chaos, load) work against: `engram serve` from the built
 * CLI in a child process, on the embedded store (a fresh data dir) or on a fresh database
 * of a PostgreSQL server (from an admin URL), so that it can be killed and restarted like a
 * deployed one. Afterwards the tools open the same store to check what it holds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/core/db.js';
import { openStore } from '../../src/engram.js';

export type Driver = 'pglite' | 'postgres';

const CLI = join(import.meta.dirname, '..', '..', 'bin', 'engram.js');

export interface Target {
  driver: Driver;
  url: string;
  /** Starts the server again on the same store (after kill or stop). */
  start(): Promise<void>;
  /** Sends signal to the server and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** A fresh key for tenant (through the running server's store), v2 unless asked for v1. */
  key(tenant: string, apiVersion?: 'v1' | 'v2'): Promise<string>;
  /** Stops the server (if running) and opens its store for inspection. */
  inspect<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  /** Stops everything and removes the data dir or database. */
  dispose(): Promise<void>;
  stderr(): string;
}

/** The drivers to run: the embedded store always, PostgreSQL when an admin URL is given. */
export function driversFrom(adminUrl: string | undefined, only?: string): Driver[] {
  const all: Driver[] = adminUrl ? ['pglite', 'postgres'] : ['pglite'];
  return only ? all.filter((d) => d === only) : all;
}

export async function startTarget(
  driver: Driver,
  adminUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-faults-'));
  let databaseUrl: string | undefined;
  const dbName = `engram_faults_${process.pid}_${Date.now()}`;
  if (driver === 'postgres') {
    if (!adminUrl) throw new Error('the postgres driver needs an admin URL (ENGRAM_TEST_DATABASE_URL)');
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const childEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ENGRAM_PORT: String(port),
    ENGRAM_DATA_DIR: dataDir,
    ENGRAM_LOG_LEVEL: 'warn',
    ENGRAM_RATE_LIMIT_RPS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  };
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let log = '';

  const start = async () => {
    const c = spawn(process.execPath, [CLI, 'serve'], { env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
    child = c;
    c.stderr!.on('data', (d) => {
      log = (log + d).slice(-200_000);
    });
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (c.exitCode !== null || c.signalCode !== null)
        throw new Error(`engram serve exited (${c.exitCode ?? c.signalCode}):\n${log.slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`engram serve did not answer /health:\n${log.slice(-3000)}`);
      try {
        if ((await fetch(`${url}/health`)).status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
    child = undefined;
  };
  const config = loadConfig({
    ENGRAM_DATA_DIR: dataDir,
    ENGRAM_LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });

  await start();
  return {
    driver,
    url,
    start,
    kill,
    stderr: () => log,
    key: async (tenant, apiVersion = 'v2') => {
      const out = await new Promise<string>((resolve, reject) => {
        const c = spawn(
          process.execPath,
          [CLI, 'keys', 'create', '--tenant', tenant, '--api-version', apiVersion],
          {
            env: childEnv,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let so = '';
        let se = '';
        c.stdout.on('data', (d) => (so += d));
        c.stderr.on('data', (d) => (se += d));
        c.once('exit', (code) => (code === 0 ? resolve(so.trim()) : reject(new Error(`keys create: ${se}`))));
      });
      return out;
    },
    inspect: async (fn) => {
      await kill('SIGTERM');
      const { db, lock } = await openStore(config, 'inspect');
      try {
        return await fn(db);
      } finally {
        await db.close();
        lock?.release();
      }
    },
    dispose: async () => {
      await kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
      if (driver === 'postgres' && adminUrl) {
        const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
        await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** `--name value` command-line options, with defaults. */
export function options(defaults: Record<string, string>): Record<string, string> {
  const out = { ...defaults };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) continue;
    const name = a.slice(2);
    if (!(name in defaults))
      throw new Error(`unknown option ${a}; known: ${Object.keys(defaults).join(', ')}`);
    out[name] = argv[++i] ?? '';
  }
  return out;
}
