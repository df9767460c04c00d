import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, MIN, T0, user } from '../helpers/messages.js';

/**
 * A synchronous add (and flush) waits for its own session's work only. With no background
 * worker at all, the only way its answer can be `extracted` is that the request ran its
 * session's earlier queued job and then its own; other sessions' jobs stay queued.
 */
describe.each(DRIVERS)('a synchronous add runs its own session’s work [%s]', (driver) => {
  let s: TestServer;
  let keyA: string;
  let keyB: string;
  const task = async (key: string, id: string) =>
    (await s.call('GET', `/api/v2/tasks/${id}`, { key })).body.data.status as string;

  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_WORKERS: 'false', ENGRAM_SYNC_WAIT_MS: '60000' });
    keyA = await s.key('tenant-a');
    keyB = await s.key('tenant-b');
  });
  afterAll(() => s.close());

  it('runs the session’s queued async job and its own; leaves other sessions’ jobs queued', async () => {
    const add = (key: string, body: unknown) => s.call('POST', '/api/v2/memory/add', { key, body });
    // queued first: another tenant's session and another session of the same tenant
    const other = await add(keyB, {
      session_id: 'b1',
      async_mode: true,
      messages: [user('bea', 'I repair old radios on weekends', T0)],
    });
    const sibling = await add(keyA, {
      session_id: 'a2',
      async_mode: true,
      messages: [user('ada', 'My brother plays the cello', T0)],
    });
    const earlier = await add(keyA, {
      session_id: 'a1',
      async_mode: true,
      messages: [user('ada', 'I am training for a half marathon in April', T0)],
    });
    expect([other.status, sibling.status, earlier.status]).toEqual([202, 202, 202]);

    const flush = await s.call('POST', '/api/v2/memory/flush', {
      key: keyA,
      body: { session_id: 'a1' },
    });
    expect(flush.status).toBe(200);
    expect(flush.body.data.status).toBe('extracted');
    expect(await task(keyA, earlier.body.data.task_id)).toBe('success');
    expect(await task(keyA, sibling.body.data.task_id)).toBe('queued');
    expect(await task(keyB, other.body.data.task_id)).toBe('queued');

    // a synchronous add behind an async one of its session
    const next = await add(keyA, {
      session_id: 'a3',
      async_mode: true,
      messages: [user('ada', 'We moved the book club to Thursdays', T0 + MIN)],
    });
    const sync = await add(keyA, {
      session_id: 'a3',
      messages: [assistant('helper', 'Thursday book club, noted.', T0 + 2 * MIN)],
    });
    expect(sync.status).toBe(200);
    expect(await task(keyA, next.body.data.task_id)).toBe('success');
    expect(await task(keyA, sibling.body.data.task_id)).toBe('queued');
    expect(await task(keyB, other.body.data.task_id)).toBe('queued');
  });
});

describe.each(DRIVERS)(
  'jobs run in requests share the workers’ slots on the embedded store [%s]',
  (driver) => {
    it('runs at most ENGRAM_WORKER_CONCURRENCY jobs at once in the process (pglite), every job to success', async () => {
      const s = await startTestServer(driver, { ENGRAM_WORKERS: 'false', ENGRAM_WORKER_CONCURRENCY: '1' });
      try {
        const queue = s.engram.queue;
        let running = 0;
        let most = 0;
        queue.register('test.overlap', async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 50));
          running--;
          return {};
        });
        const jobs = await Promise.all(
          ['c1', 'c2', 'c3', 'c4'].map((chain) =>
            queue.enqueue(s.engram.db, { tenantId: 'tenant-a', type: 'test.overlap', chainKey: chain }),
          ),
        );
        const rows = await Promise.all(jobs.map((j) => queue.runOrWait('tenant-a', j.id, 60_000)));
        expect(rows.map((r) => r?.status)).toEqual(['success', 'success', 'success', 'success']);
        if (driver === 'pglite') expect(most).toBe(1);
      } finally {
        await s.close();
      }
    });
  },
);
