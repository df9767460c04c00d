import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/core/log.js';
import { openEngram } from '../../src/engram.js';
import { CLI, runCli, type ServeProcess, startServe } from '../helpers/cli.js';
import { createPostgresDatabase, DRIVERS, dropPostgresDatabase } from '../helpers/drivers.js';

const TENANT = 'acme';
const GROUPS = ['kitchen', 'garden', 'garage'];
const PER_GROUP = 100;
const T0 = Date.UTC(2025, 0, 6, 8, 0);

/** Starts `engram migrate v1-to-v2` and SIGKILLs it once its first batch is reported. */
function killAfterFirstBatch(env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI, 'migrate', 'v1-to-v2', '--tenant', TENANT, '--batch', '10'],
      { env: { ...process.env, ENGRAM_LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let err = '';
    child.stderr!.on('data', (d: Buffer) => {
      err += d;
      const done = [...err.matchAll(/\] (\d+)\/\d+/g)].map((m) => Number(m[1]));
      if (done.some((n) => n > 0)) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve() : reject(new Error(`migration was not killed (exit ${code}): ${err}`)),
    );
  });
}

describe.each(DRIVERS)('engram migrate v1-to-v2 [%s]', (driver) => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-v1mig-'));
  let url: string | undefined;
  let serve: ServeProcess | undefined;
  afterAll(async () => {
    await serve?.stop();
    if (url) await dropPostgresDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies a few hundred v1 messages; killed half-way and run again, each is in v2 exactly once', async () => {
    if (driver === 'postgres') url = await createPostgresDatabase();
    const env: Record<string, string> = { ENGRAM_DATA_DIR: dir, ...(url ? { DATABASE_URL: url } : {}) };
    const open = () =>
      openEngram(loadConfig({ ...env, ENGRAM_LOG_LEVEL: 'silent' }), { command: 'test', log: silentLogger });

    // v1 history: three groups, a renamed sender, one message sent twice
    let engram = await open();
    const ctx = { tenantId: TENANT };
    for (let i = 0; i < PER_GROUP; i++)
      for (const [g, group] of GROUPS.entries())
        await engram.v1.add(
          ctx,
          {
            message_id: `${group}-${i}`,
            create_time: T0 + (i * GROUPS.length + g) * 60_000,
            sender: i % 2 ? 'lena' : 'omar',
            content: `${group} note ${i}: moved the blue crate to shelf ${i % 7}`,
            group_id: group,
            sender_name: i % 2 ? 'Lena' : 'Omar',
          },
          'user',
        );
    await engram.v1.patchSender(ctx, 'lena', 'Lena K.');
    await engram.close();

    // pglite: through the owner of the data dir; postgres: the command opens the database itself
    if (driver === 'pglite') serve = await startServe(dir);
    await killAfterFirstBatch(env);
    const resumed = await runCli(['migrate', 'v1-to-v2', '--tenant', TENANT, '--batch', '40'], env, 180_000);
    expect(resumed.stderr).toContain('v1 -> v2 [');
    expect(resumed.code).toBe(0);
    const total = GROUPS.length * PER_GROUP;
    const m = /(\d+) of (\d+) v1 messages in v2 \((\d+) copied by this run, 0 left\)/.exec(resumed.stdout);
    expect(m?.slice(1, 3)).toEqual([String(total), String(total)]);
    const copiedOnResume = Number(m![3]);
    // killed after copying something and before copying everything
    expect(copiedOnResume).toBeGreaterThan(0);
    expect(copiedOnResume).toBeLessThan(total);
    const again = await runCli(['migrate', 'v1-to-v2', '--tenant', TENANT], env, 120_000);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`${total} of ${total} v1 messages in v2 (0 copied by this run, 0 left)`);
    await serve?.stop();
    serve = undefined;

    engram = await open();
    try {
      const rows = await engram.db.query<{ [k: string]: unknown }>(
        `SELECT v.message_id, v.group_id, v.content AS v1_content, v.create_time, v.sender,
                m.id, m.session_id, m.sender_id, m.sender_name, m.content, m.ts, m.app_id, m.project_id
           FROM v1_messages v LEFT JOIN messages m ON m.tenant_id = v.tenant_id AND m.id = v.migrated_id
          WHERE v.tenant_id = $1`,
        [TENANT],
      );
      expect(rows).toHaveLength(total);
      for (const r of rows) {
        expect(r['id']).toBeTruthy();
        expect(r).toMatchObject({
          session_id: r['group_id'],
          sender_id: r['sender'],
          sender_name: r['sender'] === 'lena' ? 'Lena K.' : 'Omar',
          content: r['v1_content'],
          app_id: 'default',
          project_id: 'default',
        });
        expect(Number(r['ts'])).toBe(Number(r['create_time']));
      }
      // exactly once: every v2 copy in the default partition is one v1 message's copy
      const [v2] = await engram.db.query<{ n: number | string; distinct_contents: number | string }>(
        `SELECT count(*) AS n, count(DISTINCT content) AS distinct_contents FROM messages
          WHERE tenant_id = $1 AND app_id = 'default' AND project_id = 'default'`,
        [TENANT],
      );
      expect(Number(v2!.n)).toBe(total);
      expect(Number(v2!.distinct_contents)).toBe(total);
    } finally {
      await engram.close();
    }
  }, 600_000);
});

it('engram migrate v1-to-v2 needs --tenant and a sane --batch', async () => {
  const env: Record<string, string> = { ENGRAM_DATA_DIR: mkdtempSync(join(tmpdir(), 'engram-v1mig-')) };
  const none = await runCli(['migrate', 'v1-to-v2'], env);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('--tenant');
  const bad = await runCli(['migrate', 'v1-to-v2', '--tenant', 'x', '--batch', '0'], env);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--batch');
  rmSync(env['ENGRAM_DATA_DIR']!, { recursive: true, force: true });
});
