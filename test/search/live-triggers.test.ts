import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/core/db.js';
import { migrate } from '../../src/store/migrate.js';
import { backfillCounts } from '../../src/store/migrations/0011_search_counts.js';
import { backfillPostings } from '../../src/store/migrations/0014_search_postings.js';
import { MESSAGES } from '../../src/store/migrations/0015_message_search.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

/**
 * The search_counts and search_postings triggers on messages return at once when no row of
 * the statement is or was a live extracted turn (migration 20). Whatever the statement, the
 * turns' statistics and postings stay equal to what the migrations' own backfill computes
 * from the rows: writes of open turns change nothing, and a statement with one turn that
 * becomes, stays or stops being live among open ones is counted in full.
 */
const COUNTS = `
  SELECT tenant_id, app_id, project_id, owner_id, term, sum(docs)::int AS docs, sum(len)::int AS len
  FROM search_counts WHERE kind = 'message'
  GROUP BY 1, 2, 3, 4, 5 HAVING sum(docs) <> 0 OR sum(len) <> 0 ORDER BY 1, 2, 3, 4, 5`;
const POSTINGS = `
  SELECT tenant_id, app_id, project_id, owner_id, term, impact, doc_id, tf, dl
  FROM search_postings WHERE kind = 'message' ORDER BY 1, 2, 3, 4, 5, 7`;

const read = async (db: Sql) => ({ counts: await db.query(COUNTS), postings: await db.query(POSTINGS) });

const ROLLBACK = new Error('rollback');
/** The turns' rows as the backfill of migrations 0011 and 0014 computes them, in a rolled-back transaction. */
async function recount(t: TestDatabase) {
  let expected: Awaited<ReturnType<typeof read>> | undefined;
  await t.db
    .transaction(async (tx) => {
      await tx.query(`DELETE FROM search_counts WHERE kind = 'message'`);
      await tx.query(`DELETE FROM search_postings WHERE kind = 'message'`);
      await tx.query(backfillCounts({ messages: MESSAGES }));
      await tx.query(backfillPostings('messages', MESSAGES));
      expected = await read(tx);
      throw ROLLBACK;
    })
    .catch((e: unknown) => {
      if (e !== ROLLBACK) throw e;
    });
  return expected!;
}

describe.each(DRIVERS)('turn statistics and postings, triggers with nothing to do [%s]', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await migrate(t.db);
  });
  afterAll(async () => {
    await t?.drop();
  });

  const ids = (...n: number[]) => n.map((i) => `turn-${i}`);
  /** Runs a statement and checks the turns' rows against the recount; returns them. */
  const step = async (statement: string, params: unknown[] = []) => {
    await t.db.query(statement, params);
    const stored = await read(t.db);
    expect(stored).toEqual(await recount(t));
    return stored;
  };

  it('uses the functions that exit early', async () => {
    const rows = await t.db.query<{ proname: string }>(
      `SELECT proname FROM pg_proc
       WHERE proname IN ('engram_search_counts_messages', 'engram_search_postings_messages')
         AND prosrc LIKE '%IF NOT EXISTS%RETURN NULL%' ORDER BY proname`,
    );
    expect(rows.map((r) => r.proname)).toEqual([
      'engram_search_counts_messages',
      'engram_search_postings_messages',
    ]);
  });

  it('match the backfill through adds, processing, extraction, edits and deletes', async () => {
    // An add: open turns only (two sessions, two tenants).
    let s = await step(
      `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, role, content, ts, state)
       SELECT CASE WHEN g <= 9 THEN 'tenant-a' ELSE 'tenant-b' END, 'turn-' || g, 'default', 'default',
              CASE WHEN g <= 5 THEN 's-1' ELSE 's-2' END, CASE WHEN g % 3 = 0 THEN 'helper' ELSE 'ann' END,
              CASE WHEN g % 3 = 0 THEN 'assistant' ELSE 'user' END,
              'the sailboat mast needs varnish before spring ' || g, g, 'queued'
       FROM generate_series(1, 11) g`,
    );
    expect(s.counts).toEqual([]);
    // A processing job's UPDATE: buffered with embeddings, some cut into a segment; nothing counts.
    s = await step(
      `UPDATE messages SET state = CASE WHEN session_id = 's-1' THEN 'segmented' ELSE 'buffered' END,
              segment_id = CASE WHEN session_id = 's-1' THEN 'seg-1' END, embedding = '[1,0,2]'::vector`,
    );
    expect(s.postings).toEqual([]);
    // Extraction: no old row counts, the new ones do.
    s = await step(
      `UPDATE messages SET state = 'extracted', owner_ids = ARRAY['ann', 'bo'] WHERE segment_id = 'seg-1'`,
    );
    expect(s.counts.length).toBeGreaterThan(0);
    // One live turn edited among open ones, in one statement.
    await step(
      `UPDATE messages SET content = CASE id WHEN 'turn-2' THEN 'varnish the hull and the tiller' ELSE content END,
              embedding = '[0,1,1]'::vector
       WHERE id = ANY ($1)`,
      [ids(2, 6, 7)],
    );
    // Live rows written without a counted change; then open turns only again.
    await step(`UPDATE messages SET embedding = '[2,2,2]'::vector WHERE id = ANY ($1)`, [ids(1, 3)]);
    await step(`UPDATE messages SET state = 'segmented', segment_id = 'seg-2' WHERE id = ANY ($1)`, [
      ids(6, 7, 8),
    ]);
    // A soft delete: the old row counts, the new one does not.
    s = await step(`UPDATE messages SET deleted_at = now() WHERE id = ANY ($1)`, [ids(1, 9)]);
    const docs = (x: typeof s) =>
      x.counts.filter((r) => r['term'] === '' && r['owner_id'] === 'ann').map((r) => r['docs']);
    expect(docs(s)).toEqual([4]);
    // A deleted turn edited (counts neither before nor after), then restored.
    await step(`UPDATE messages SET content = 'restored: the boom creaks' WHERE id = 'turn-1'`);
    await step(`UPDATE messages SET deleted_at = NULL WHERE id = 'turn-1'`);
    // A turn that leaves the extracted state among turns that enter it.
    await step(
      `UPDATE messages SET state = CASE id WHEN 'turn-3' THEN 'segmented' ELSE 'extracted' END,
              owner_ids = CASE id WHEN 'turn-3' THEN owner_ids ELSE ARRAY['ann'] END
       WHERE id = ANY ($1)`,
      [ids(3, 6, 7, 8)],
    );
    // An owner removed from live turns.
    await step(`UPDATE messages SET owner_ids = array_remove(owner_ids, 'bo') WHERE tenant_id = 'tenant-a'`);
    // Hard deletes: open turns only, then live and open ones together.
    await step(`DELETE FROM messages WHERE id = ANY ($1)`, [ids(10, 11)]);
    s = await step(`DELETE FROM messages WHERE id = ANY ($1)`, [ids(4, 9, 6)]);
    expect(docs(s)).toEqual([5]);
    // An insert of a live turn among open ones.
    s = await step(
      `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, role, content, ts, state, owner_ids)
       VALUES ('tenant-a', 'turn-20', 'default', 'default', 's-3', 'ann', 'user', 'a new jib for the sailboat', 20, 'extracted', ARRAY['ann']),
              ('tenant-a', 'turn-21', 'default', 'default', 's-3', 'ann', 'user', 'a queued turn about the jib', 21, 'queued', NULL)`,
    );
    expect(docs(s)).toEqual([6]);
    expect(s.postings.some((r) => r['doc_id'] === 'turn-20' && r['term'] === 'jib')).toBe(true);
  });
});
