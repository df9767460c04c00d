import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/engram.js';
import { migrate } from '../../src/store/migrate.js';
import { freePort, runCli, startServe } from '../helpers/cli.js';

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-proc-'));
  dirs.push(d);
  return d;
};
const umask = process.umask();
afterAll(() => {
  process.umask(umask);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every path under root whose mode lets group or others in. */
function exposed(root: string): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    const st = lstatSync(p);
    if (st.isSymbolicLink()) return;
    if ((st.mode & 0o077) !== 0) out.push(`${(st.mode & 0o777).toString(8)} ${p}`);
    if (st.isDirectory()) for (const n of readdirSync(p)) walk(join(p, n));
  };
  walk(root);
  return out;
}

describe('the embedded data directory is private to its owner', () => {
  it('creates missing directories 0700 and everything PGlite writes 0600, under umask 022', async () => {
    process.umask(0o022);
    const dataDir = join(newDir(), 'fresh', 'data');
    const config = loadConfig({ ENGRAM_DATA_DIR: dataDir, ENGRAM_LOG_LEVEL: 'silent' });
    const { db, lock } = await openStore(config, 'test');
    try {
      await migrate(db);
      await db.query(`CREATE TABLE filler (t text)`);
      await db.query(`INSERT INTO filler SELECT repeat('x', 200) FROM generate_series(1, 2000)`);
    } finally {
      await db.close();
      lock?.release();
    }
    expect(readdirSync(join(dataDir, 'pg')).length).toBeGreaterThan(5);
    expect(exposed(join(dataDir, '..'))).toEqual([]);
  });

  it('narrows an existing world-readable data directory on open', async () => {
    process.umask(0o022);
    const dataDir = join(newDir(), 'data');
    mkdirSync(join(dataDir, 'old'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'old', 'file'), 'x', { mode: 0o666 });
    const config = loadConfig({ ENGRAM_DATA_DIR: dataDir, ENGRAM_LOG_LEVEL: 'silent' });
    const { db, lock } = await openStore(config, 'test');
    await db.close();
    lock?.release();
    expect(exposed(dataDir)).toEqual([]);
  });
});

describe('process faults end with a message, not a hang', () => {
  it('fails at once with a message on a data dir that cannot be created', async () => {
    const r = await runCli(['keys', 'list'], { ENGRAM_DATA_DIR: '/proc/engram-x/data' }, 30_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('data directory /proc/engram-x/data cannot be used');
  });

  it('exits non-zero and releases the lock when the port is taken', { timeout: 180_000 }, async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
    try {
      const dataDir = join(newDir(), 'data');
      const r = await runCli(['serve'], { ENGRAM_DATA_DIR: dataDir, ENGRAM_PORT: String(port) }, 170_000);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('already in use');
      expect(existsSync(join(dataDir, 'engram.lock'))).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('does not log a client that disconnects mid-body as an error', { timeout: 240_000 }, async () => {
    const dataDir = join(newDir(), 'data');
    const s = await startServe(dataDir, { ENGRAM_LOG_LEVEL: 'debug' });
    try {
      const key = (
        await runCli(['keys', 'create', '--tenant', 't1'], { ENGRAM_DATA_DIR: dataDir })
      ).stdout.trim();
      const { port } = new URL(s.url);
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve) => {
          const sock = connect(Number(port), '127.0.0.1', () => {
            sock.write(
              `POST /api/v2/memory/add HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
                `Content-Length: 100000\r\nAuthorization: Bearer ${key}\r\n\r\n{"session_id":`,
            );
            setTimeout(() => {
              sock.destroy();
              resolve();
            }, 200);
          });
          sock.on('error', () => resolve());
        });
      }
      // the server is still there and answers, and has seen each client go
      expect((await fetch(`${s.url}/health`)).status).toBe(200);
      const gone = () => s.stderr().match(/client disconnected mid-request/g)?.length ?? 0;
      for (let i = 0; i < 600 && gone() < 3; i++) await new Promise((r) => setTimeout(r, 100));
      expect(gone()).toBe(3);
      expect(s.stderr()).not.toMatch(/ error /);
    } finally {
      await s.stop();
    }
  });
});
