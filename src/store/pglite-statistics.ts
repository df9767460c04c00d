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
 * never analysed or has grown by more than a fifth (in pages) since it last was.
 * Returns the tables refreshed. Run by the embedded store's workers (see engram.ts).
 */
export async function refreshStatistics(db: Sql): Promise<string[]> {
  const stale = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind = 'r'
       AND (c.reltuples < 0
            OR pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * ${GROWTH} + ${SLACK_PAGES})
     ORDER BY c.relname`,
  );
  for (const { name } of stale) await db.query(`VACUUM (ANALYZE) "${name.replace(/"/g, '""')}"`);
  return stale.map((r) => r.name);
}
