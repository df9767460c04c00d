import type { Sql } from '../core/db.js';

/** A table is refreshed once it has grown by more than this share (in pages) since its last ANALYZE. */
export const GROWTH = 1.2;
/** Pages a table may grow by before the share counts, so small tables are not redone. */
const SLACK_PAGES = 8;

/**
 * PGlite runs no autovacuum, so an embedded store would never have planner statistics
 * (every search statement planned from default selectivities: measured, the owner's turns
 * read through an index over the whole scope, 27,701 rows filtered out, 250-320 ms instead
 * of ~40 ms through the owner index) nor a visibility map (every index-only scan of
 * search_postings visits the heap: ~2,300 heap fetches per turn rank statement). This
 * does autovacuum's work for it: `VACUUM (ANALYZE)` of each table of the schema that was
 * never analysed or has grown by more than a fifth (in pages) since it last was. A table
 * that holds rows but no column statistics was never analysed even when pg_class has its
 * size: CREATE INDEX records relpages and reltuples (the vector index built at start for a
 * table above the threshold does), and such a table was then left without statistics
 * (measured: the facts of returned episodes read by a nested loop over all 19,612 facts,
 * 242 ms, the planner expecting 98).
 * Returns the tables refreshed. Run by the embedded store's workers (see engram.ts).
 */
export async function refreshStatistics(db: Sql): Promise<string[]> {
  const stale = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r'
       AND (c.reltuples < 0
            OR (c.relpages > 0 AND NOT EXISTS (SELECT 1 FROM pg_statistic s WHERE s.starelid = c.oid))
            OR pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * ${GROWTH} + ${SLACK_PAGES})
     ORDER BY c.relname`,
  );
  for (const { name } of stale) await db.query(`VACUUM (ANALYZE) "${name.replace(/"/g, '""')}"`);
  return stale.map((r) => r.name);
}
