import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asArrivingNow } from '../../src/core/arrival.js';
import type { Db } from '../../src/core/db.js';
import { openPglite } from '../../src/store/pglite.js';

/**
 * The embedded store has one connection for every request and job. Its statements are
 * served oldest work first, and the event loop turns between two, so a busy store still
 * reads new connections and a request never waits behind work that arrived after it.
 */
describe('the embedded store serves statements by arrival [pglite]', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPglite(undefined);
  });
  afterAll(() => db.close());

  const chain = async (name: string, n: number, order: string[]) => {
    for (let i = 0; i < n; i++) {
      await db.query('SELECT $1::int AS i', [i]);
      order.push(name);
    }
  };

  // the next asArrivingNow arrives strictly later, in the same tick (no turn of the loop)
  const tick = () => {
    const t = performance.now();
    while (performance.now() === t);
  };

  it('runs the earlier work’s statements before a later one’s, whatever their count', async () => {
    const order: string[] = [];
    const earlier = asArrivingNow(() => chain('earlier', 30, order));
    tick();
    const later = asArrivingNow(() => chain('later', 30, order));
    await Promise.all([earlier, later]);
    // first come first served per statement would interleave the two chains
    expect(order.indexOf('later')).toBe(30);
    expect(order.lastIndexOf('earlier')).toBe(29);
  });

  it('a transaction counts as one turn of the work that opened it', async () => {
    const order: string[] = [];
    const earlier = asArrivingNow(() => chain('earlier', 10, order));
    tick();
    const tx = asArrivingNow(() =>
      db.transaction(async (q) => {
        for (let i = 0; i < 5; i++) await q.query('SELECT 1');
        order.push('tx');
      }),
    );
    await Promise.all([earlier, tx]);
    expect(order).toEqual([...Array(10).fill('earlier'), 'tx']);
  });

  it('lets the event loop turn between two statements of a long run', async () => {
    let done = 0;
    const run = asArrivingNow(async () => {
      for (let i = 0; i < 200; i++) {
        await db.query('SELECT 1');
        done++;
      }
    });
    // a timer (like a new connection's accept) waits for one turn of the loop
    const seenAt = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    await run;
    expect(seenAt).toBeLessThan(200);
  });
});
