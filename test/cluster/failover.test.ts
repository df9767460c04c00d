import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db.js';
import { openPostgres } from '../../src/store/postgres.js';
import { type Cluster, startCluster } from '../helpers/cluster.js';
import { ADMIN_URL } from '../helpers/drivers.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';
import { MIN, T0, user } from '../helpers/messages.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Three nodes on one database: a node killed while it holds a job's lease leaves the job
 * to another node, and one per-key rate limit holds whichever node a request reaches.
 */

describe.skipIf(!ADMIN_URL)('three nodes: failover and shared limits [postgres]', () => {
  let c: Cluster;
  let fake: FakeOpenAI;
  let db: Db;
  let extractionCalls = 0;

  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    fake.handle('chat', (body) => {
      const name = body?.response_format?.json_schema?.name ?? '';
      if (name === 'topic_shift') return { content: '{"shift": false}' };
      // the first extraction never answers: its node is killed while waiting for it
      if (++extractionCalls === 1) return { hangMs: 600_000 };
      return {
        content: JSON.stringify({
          subject: 'Kayak',
          summary: 'Tove bought a sea kayak.',
          episode: 'Tove said she bought a sea kayak and paddles on Sundays.',
          facts: [{ content: 'Tove owns a sea kayak.', sources: [1] }],
          profiles: [],
          cases: [],
        }),
      };
    });
    c = await startCluster(3, {
      ENGRAM_LLM_BASE_URL: fake.baseURL,
      ENGRAM_LLM_TIMEOUT_MS: '600000',
      ENGRAM_LLM_MAX_RETRIES: '0',
      ENGRAM_TASK_LEASE_MS: '2000',
      ENGRAM_BOUNDARY_MAX_MESSAGES: '2',
      ENGRAM_RATE_LIMIT_RPS: '0.5',
      ENGRAM_RATE_LIMIT_BURST: '10',
    });
    db = openPostgres(c.databaseUrl, { max: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await c?.close();
    await fake?.stop();
  });

  it('the per-key rate limit holds across the nodes', async () => {
    const key = await c.key('tenant-r');
    // every node's database pool open before the burst (an idle pool closes after 30 s)
    for (const node of c.nodes) expect((await fetch(`${node.url}/health`)).status).toBe(200);
    const started = Date.now();
    const replies: { status: number; retryAfter: string | null; body: any }[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await fetch(`${c.url}/api/v2/tasks/stats`, { headers: { authorization: `Bearer ${key}` } });
      replies.push({ status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.json() });
    }
    const seconds = (Date.now() - started) / 1000;
    const statuses = replies.map((r) => r.status);
    expect(replies.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    const passed = statuses.filter((s) => s === 200).length;
    // one bucket of 10 (plus what 0.5/s refilled meanwhile), not three
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(passed).toBeLessThanOrEqual(10 + Math.ceil(0.5 * seconds) + 1);
    const limited = replies.find((r) => r.status === 429)!;
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(limited.body.error.code).toBe('RateLimited');
    expect(new Set(c.proxy.backendsFor((r) => r.path === '/api/v2/tasks/stats')).size).toBe(3);
  });

  it('a job whose node is killed mid-extraction is finished by another node, once', async () => {
    const key = await c.key('tenant-k');
    const add = await c.call('POST', '/api/v2/memory/add', key, {
      session_id: 'kayak',
      async_mode: true,
      messages: [
        user('tove', 'I bought a sea kayak last week.', T0),
        user('tove', 'I paddle along the coast every Sunday.', T0 + MIN),
        user('tove', 'Next I want a spray deck.', T0 + 2 * MIN),
      ],
    });
    expect(add.status).toBe(202);
    const taskId = add.body.data.task_id as string;
    const task = async () =>
      (
        await db.query<{ status: string; attempts: number; locked_by: string | null }>(
          `SELECT status, attempts, locked_by FROM tasks WHERE tenant_id = 'tenant-k' AND id = $1`,
          [taskId],
        )
      )[0]!;

    await waitFor('the extraction to hang', () => extractionCalls >= 1);
    const holder = await task();
    expect(holder.status).toBe('processing');
    const node = c.nodeByPid(Number(/^w_(\d+)_/.exec(holder.locked_by ?? '')?.[1]));
    expect(node).toBeGreaterThanOrEqual(0);
    expect(await c.nodes[node]!.stop('SIGKILL')).toBe(null);

    await waitFor('another node to finish the job', async () => (await task()).status === 'success');
    const done = await task();
    expect(done.attempts).toBe(2);
    expect(extractionCalls).toBe(2);
    const got = await c.call('POST', '/api/v2/memory/get', key, { memory_type: 'episode', user_id: 'tove' });
    expect(got.status).toBe(200);
    expect(got.body.data.total_count).toBe(1);
    const messages = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE tenant_id = 'tenant-k' AND deleted_at IS NULL`,
    );
    expect(messages[0]!.n).toBe(3);
  });
});
