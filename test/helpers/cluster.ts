import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, type ServeProcess, startServe } from './cli.js';
import { createPostgresDatabase, dropPostgresDatabase } from './drivers.js';
import { RoundRobinProxy } from './round-robin-proxy.js';

/**
 * Several real `engram serve` processes on one fresh PostgreSQL database behind a
 * round-robin proxy on loopback: what an operator runs to scale out. PostgreSQL only (an
 * embedded PGlite directory belongs to one process).
 */
export interface Cluster {
  url: string;
  databaseUrl: string;
  nodes: ServeProcess[];
  proxy: RoundRobinProxy;
  /** A fresh API key for tenant (v2 unless asked for v1), made with the CLI. */
  key(tenant?: string, apiVersion?: 'v1' | 'v2'): Promise<string>;
  /** fetch through the proxy with a JSON body and bearer key; the body parsed. */
  call(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** The node whose process has this pid. */
  nodeByPid(pid: number): number;
  close(): Promise<void>;
}

export async function startCluster(
  size: number,
  env: Record<string, string> = {},
  /** Run on this database and leave it behind (default: a fresh one, dropped on close). */
  existing?: string,
): Promise<Cluster> {
  const databaseUrl = existing ?? (await createPostgresDatabase());
  const dir = mkdtempSync(join(tmpdir(), 'engram-cluster-'));
  const nodeEnv = { ENGRAM_LOG_LEVEL: 'warn', ...env, DATABASE_URL: databaseUrl };
  const nodes: ServeProcess[] = [];
  const close = async () => {
    await proxy?.stop();
    await Promise.all(nodes.map((n) => (n.child.exitCode === null ? n.stop('SIGKILL') : undefined)));
    if (!existing) await dropPostgresDatabase(databaseUrl);
    rmSync(dir, { recursive: true, force: true });
  };
  let proxy: RoundRobinProxy | undefined;
  try {
    // the first node migrates the database; the others start beside it
    nodes.push(await startServe(join(dir, 'n0'), nodeEnv));
    nodes.push(
      ...(await Promise.all(
        Array.from({ length: size - 1 }, (_, i) => startServe(join(dir, `n${i + 1}`), nodeEnv)),
      )),
    );
    proxy = await new RoundRobinProxy(nodes.map((n) => n.url)).start();
  } catch (err) {
    await close();
    throw err;
  }
  const url = proxy.url;
  return {
    url,
    databaseUrl,
    nodes,
    proxy,
    key: async (tenant = 'tenant-a', apiVersion = 'v2') => {
      const r = await runCli(['keys', 'create', '--tenant', tenant, '--api-version', apiVersion], {
        ...nodeEnv,
        ENGRAM_DATA_DIR: dir,
      });
      if (r.code !== 0) throw new Error(`keys create failed: ${r.stderr}`);
      return r.stdout.trim();
    },
    call: async (method, path, key, body) => {
      const res = await fetch(url + path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // leave as text
      }
      return { status: res.status, body: parsed };
    },
    nodeByPid: (pid) => nodes.findIndex((n) => n.child.pid === pid),
    close,
  };
}
