import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DeleteInput } from '../../src/contract/memory-write.js';
import type { Db, Sql } from '../../src/core/db.js';
import { EngramError, isConflict, retryConflicts, toEngramError } from '../../src/core/errors.js';
import { silentLogger } from '../../src/core/log.js';
import { type Engram, openEngram } from '../../src/engram.js';
import { ADMIN_URL, createTestDatabase, type TestDatabase } from '../helpers/drivers.js';
import { testConfig } from '../helpers/engram.js';
import { HashEmbedder } from '../helpers/hash-embedder.js';
import { MIN, T0, user } from '../helpers/messages.js';

/** The database, with `before` awaited ahead of every statement run in a transaction. */
function interceptTransactions(
  db: Db,
  before: (text: string, params: readonly unknown[]) => Promise<void>,
): Db {
  const intercepted = (tx: Sql): Sql => ({
    query: async (text, params = []) => {
      await before(text, params);
      return tx.query(text, params);
    },
  });
  return {
    driver: db.driver,
    query: (text, params) => db.query(text, params),
    transaction: (fn) => db.transaction((tx) => fn(intercepted(tx))),
    listen: (channel, onPayload) => db.listen(channel, onPayload),
    exclusive: (key, fn) => db.exclusive(key, fn),
    close: () => db.close(),
  };
}

const sleep = (ms: number) => new Promise((go) => setTimeout(go, ms));
const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('a write that conflicts with a concurrent one', () => {
  it('is tried again, and refused as retryable once the tries are spent', async () => {
    let calls = 0;
    await expect(
      retryConflicts(async () => {
        if (++calls < 3) throw deadlock();
        return 'written';
      }),
    ).resolves.toBe('written');
    expect(calls).toBe(3);

    calls = 0;
    const spent = await retryConflicts(async () => {
      calls++;
      throw deadlock();
    }).catch((err: unknown) => err);
    expect(calls).toBe(4);
    expect(isConflict(spent)).toBe(true);
    const e = toEngramError(spent);
    expect(e).toBeInstanceOf(EngramError);
    expect(e).toMatchObject({ code: 'ServiceUnavailable', status: 503, retryAfter: 1 });

    calls = 0;
    await expect(
      retryConflicts(async () => {
        calls++;
        throw new Error('not a conflict');
      }),
    ).rejects.toThrow('not a conflict');
    expect(calls).toBe(1);
  });
});

/**
 * Two people of one conversation deleted at once (DELETE /api/v2/memory with user_id). Each
 * delete took the statistics keys of both owners of their turns, then the other's turn rows:
 * with the statements interleaved PostgreSQL detected a deadlock and rolled one back. A delete
 * now locks its turns first, in id order, so the second waits for the first; both are
 * acknowledged, and both hold.
 */
describe.skipIf(!ADMIN_URL)('two owners of one conversation deleted at once [postgres]', () => {
  let t: TestDatabase;
  let e: Engram;
  const config = testConfig();
  afterAll(async () => {
    await e?.close();
    await t?.drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('both succeed, and neither owner keeps a turn or a count', async () => {
    t = await createTestDatabase('postgres');
    const scope = { app_id: 'default', project_id: 'default' };
    const ctx = { tenantId: 't' };
    let interleave: (() => Promise<void>) | undefined;
    let tries = 0;
    const db = interceptTransactions(t.db, async (text, params) => {
      if (text.startsWith('UPDATE messages SET deleted_at') && params[3] === 'ben') tries++;
      // Ana's delete, between taking her turns and dropping her from the other turns' owners:
      // Ben's delete starts and waits on the statistics keys Ana's first statement holds.
      if (interleave && text.includes('array_remove(owner_ids') && params[3] === 'ana') {
        const run = interleave;
        interleave = undefined;
        await run();
      }
    });
    e = await openEngram(config, {
      command: 'test',
      log: silentLogger,
      db,
      workers: false,
      embedder: new HashEmbedder(64),
    });
    await e.memory.add(ctx, {
      ...scope,
      session_id: 'duo',
      async_mode: false,
      messages: [
        user('ana', 'We rented a canal boat for the weekend', T0),
        user('ben', 'I steered the canal boat through three locks', T0 + MIN),
      ],
    });
    await e.memory.flush(ctx, { ...scope, session_id: 'duo' });
    await e.queue.drain();
    const owners = await t.db.query<{ owner_ids: string[] }>(
      `SELECT owner_ids FROM messages WHERE session_id = 'duo' AND state = 'extracted'`,
    );
    expect(owners.map((o) => [...o.owner_ids].sort())).toEqual([
      ['ana', 'ben'],
      ['ana', 'ben'],
    ]);

    let ben: Promise<unknown> | undefined;
    interleave = async () => {
      ben = e.memory.delete(ctx, DeleteInput.parse({ ...scope, user_id: 'ben' }));
      await sleep(300);
    };
    const ana = e.memory.delete(ctx, DeleteInput.parse({ ...scope, user_id: 'ana' }));
    await expect(ana).resolves.toBeDefined();
    expect(ben).toBeDefined();
    await expect(ben).resolves.toBeDefined();
    // Ben's delete waited for Ana's: it ran once, neither rolled back for a deadlock.
    expect(tries).toBe(1);

    const live = await t.db.query(`SELECT id FROM messages WHERE session_id = 'duo' AND deleted_at IS NULL`);
    expect(live).toEqual([]);
    const counted = await t.db.query<{ owner_id: string; docs: number }>(
      `SELECT owner_id, sum(docs)::int AS docs FROM search_counts WHERE owner_id IN ('ana', 'ben') AND term = ''
       GROUP BY owner_id HAVING sum(docs) <> 0`,
    );
    expect(counted).toEqual([]);
  });
});
