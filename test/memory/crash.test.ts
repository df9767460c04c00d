import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { createPostgresDatabase, DRIVERS, dropPostgresDatabase } from '../helpers/drivers.js';
import { MIN, T0, user } from '../helpers/messages.js';

/**
 * SIGKILL the server while async adds and extraction jobs are in flight, restart it:
 * every acknowledged message is there and every acknowledged task ends success or failed.
 */
describe.each(DRIVERS)('crash safety [%s]', (driver) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('loses no acknowledged message and leaves no task stuck', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-crash-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const env: Record<string, string> = {
      ENGRAM_TASK_LEASE_MS: '2000',
      ENGRAM_RATE_LIMIT_RPS: '0',
      ENGRAM_WORKER_CONCURRENCY: '2',
    };
    if (driver === 'postgres') {
      const url = await createPostgresDatabase();
      cleanups.push(() => dropPostgresDatabase(url));
      env['DATABASE_URL'] = url;
    }
    let server = await startServe(dir, env);
    const keyEnv = { ...env, ENGRAM_DATA_DIR: dir };
    const key = (await runCli(['keys', 'create', '--tenant', 'crash'], keyEnv)).stdout.trim();
    const call = (url: string, path: string, body?: unknown) =>
      fetch(url + path, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

    const acked: { ids: string[]; task?: string; session: string }[] = [];
    const sessions = ['c1', 'c2', 'c3', 'c4'];
    const sends: Promise<void>[] = [];
    for (let round = 0; round < 12; round++)
      for (const [i, session] of sessions.entries()) {
        const messages = Array.from({ length: 15 }, (_, j) =>
          user(
            `u${i}`,
            `Round ${round} message ${j}: I went to the market and bought ${j} apples and a ${round} kg melon.`,
            T0 + (round * 20 + j) * MIN,
          ),
        );
        const body = { session_id: session, async_mode: round % 3 !== 2, messages };
        sends.push(
          call(server.url, '/api/v2/memory/add', body)
            .then((r) => {
              if (r.status === 200 || r.status === 202)
                acked.push({ ids: r.body.data.message_ids, task: r.body.data.task_id, session });
            })
            .catch(() => {}),
        );
      }
    // kill once some work is acknowledged and extraction is under way
    const deadline = Date.now() + 30_000;
    while (acked.length < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await server.stop('SIGKILL')).toBe(null);
    await Promise.allSettled(sends);
    expect(acked.length).toBeGreaterThan(0);
    expect(acked.length).toBeLessThan(48); // killed while adds were still arriving

    server = await startServe(dir, env);
    cleanups.push(async () => {
      if (server.child.exitCode === null) await server.stop('SIGKILL');
    });
    // every acknowledged task reaches a final state
    for (const a of acked.filter((x) => x.task)) {
      let status = '';
      for (let i = 0; i < 600 && !['success', 'failed'].includes(status); i++) {
        status = (await call(server.url, `/api/v2/tasks/${a.task}`)).body.data?.status ?? '';
        if (!['success', 'failed'].includes(status)) await new Promise((r) => setTimeout(r, 100));
      }
      expect(['success', 'failed']).toContain(status);
    }
    // every acknowledged message is there: after a flush, episodes cite them all
    const seen = new Set<string>();
    for (const [i, session] of sessions.entries()) {
      const f = await call(server.url, '/api/v2/memory/flush', { session_id: session });
      expect(f.status).toBe(200);
      for (let page = 1; ; page++) {
        const g = await call(server.url, '/api/v2/memory/get', {
          memory_type: 'episode',
          user_id: `u${i}`,
          page,
          page_size: 100,
        });
        for (const e of g.body.data.episodes) for (const id of e.source_message_ids) seen.add(id);
        if (g.body.data.episodes.length < 100) break;
      }
    }
    const missing = acked.flatMap((a) => a.ids).filter((id) => !seen.has(id));
    expect(missing).toEqual([]);
    await server.stop();
  }, 240_000);
});
