import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-cli-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const get = (url: string, key?: string) =>
  fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {}).then((r) => r.status);

describe('engram CLI on the embedded store', () => {
  it('prints a key alone on stdout, and keys list / revoke work without a server', async () => {
    const dir = newDir();
    const env = { ENGRAM_DATA_DIR: dir };
    const created = await runCli(['keys', 'create', '--tenant', 't1'], env);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^egm_[0-9a-f]{16}_[A-Za-z0-9_-]{43}\n$/);
    const listed = await runCli(['keys', 'list', '--json'], env);
    const keys = JSON.parse(listed.stdout) as { key_id: string; tenant_id: string; api_version: string }[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ tenant_id: 't1', api_version: 'v2' });
    // the key id that revoke takes is on stderr, never the secret
    expect(created.stderr).toContain(`engram keys revoke ${keys[0]!.key_id}`);
    expect(created.stderr).not.toContain(created.stdout.trim());
    const revoked = await runCli(['keys', 'revoke', created.stdout.trim()], env);
    expect(revoked.code).toBe(0);
    expect(revoked.stderr).toContain(`revoked key ${keys[0]!.key_id}\n`);
    expect(revoked.stderr).not.toContain(created.stdout.trim().slice(22));
    const again = await runCli(['keys', 'revoke', keys[0]!.key_id], env);
    expect(again.code).toBe(1);
    expect(again.stderr).not.toContain(created.stdout.trim().slice(22));
    const help = await runCli(['--help'], env);
    for (const f of ['--json', '--log-level', '--data-dir', '--database-url', 'keys revoke KEY_ID'])
      expect(help.stdout).toContain(f);
    expect(existsSync(join(dir, 'engram.lock'))).toBe(false);
  });

  it('rejects bad input with a clear message', async () => {
    const dir = newDir();
    const r = await runCli(['keys', 'create', '--tenant', 'bad tenant!'], { ENGRAM_DATA_DIR: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/tenant/);
    const c = await runCli(['serve'], { ENGRAM_DATA_DIR: dir, ENGRAM_PORT: 'x' });
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/ENGRAM_PORT/);
  });

  it('serves, keeps data across a restart, and works through the owner for a second process', async () => {
    const dir = newDir();
    const first = await startServe(dir);
    try {
      expect(await get(`${first.url}/health`)).toBe(200);
      // keys made by other processes while serve owns the dir go through its control socket
      const made = await Promise.all(
        Array.from({ length: 4 }, () =>
          runCli(['keys', 'create', '--tenant', 't1'], { ENGRAM_DATA_DIR: dir }),
        ),
      );
      const keys = made.map((m) => m.stdout.trim());
      for (const m of made) expect(m.code).toBe(0);
      for (const k of keys) expect(await get(`${first.url}/api/v2/x`, k)).toBe(404);
      expect(await get(`${first.url}/api/v2/x`)).toBe(401);

      // a second server on the same dir stops and names the owner
      const second = await runCli(['serve'], { ENGRAM_DATA_DIR: dir, ENGRAM_PORT: '0' });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`pid ${first.child.pid}`);
      expect(second.stderr).toContain(first.url);

      expect(await first.stop('SIGTERM')).toBe(0);
      const again = await startServe(dir);
      try {
        for (const k of keys) expect(await get(`${again.url}/api/v2/x`, k)).toBe(404);
      } finally {
        await again.stop();
      }
    } finally {
      if (first.child.exitCode === null) await first.stop('SIGKILL');
    }
  });

  it('recovers the data dir after the owner is killed', async () => {
    const dir = newDir();
    const s = await startServe(dir);
    const key = (await runCli(['keys', 'create', '--tenant', 't1'], { ENGRAM_DATA_DIR: dir })).stdout.trim();
    await s.stop('SIGKILL');
    expect(existsSync(join(dir, 'engram.lock'))).toBe(true); // stale: its pid is gone
    const again = await startServe(dir);
    try {
      expect(await get(`${again.url}/api/v2/x`, key)).toBe(404);
    } finally {
      await again.stop();
    }
  });
});
