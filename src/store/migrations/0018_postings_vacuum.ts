/**
 * Keyword candidates are read from search_postings by index-only scans (migration 0014):
 * a posting whose heap page is not marked all-visible costs a heap fetch. PostgreSQL
 * vacuums an insert-mostly table, setting its visibility map, only after inserts of a fifth
 * of its rows by default: on a table of 9M postings the newest 1.8M, those of the owners
 * writing now (the ones searched), could wait. Measured on a bench store (10k episodes of
 * one owner among ~110k, 8.9M postings, 88 % of pages all-visible): a turn rank statement
 * read 4,456 postings with 1,649 heap fetches in 19.3 ms, 13.0 ms after a VACUUM; PostgreSQL
 * CPU per keyword search 60.5 -> 55.5 ms. Here the table is vacuumed after inserts of a
 * hundredth of its rows (at least 10,000). PGlite has no autovacuum (its upkeep vacuums,
 * see pglite-statistics.ts) and keeps the settings unused.
 */
export const sql = `
ALTER TABLE search_postings SET (autovacuum_vacuum_insert_scale_factor = 0.01, autovacuum_vacuum_insert_threshold = 10000);
`;
