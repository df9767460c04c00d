import type { Db } from '../core/db.js';
import type { Embedder } from '../core/ports.js';
import { topicEmbeddingText } from './kb/ingest.js';
import { caseEmbeddingText, episodeEmbeddingText, skillEmbeddingText } from './memory/extract.js';
import { LIVE_MESSAGES } from './memory/stored-message.js';
import { vectorText } from './search/vector.js';
import { dropHnswIndexes, VECTOR_TABLES, type VectorTable } from './vector-index.js';

/**
 * Re-embeds every live memory with `embedder` (after the embedding model changed). The
 * switch happens first, in one transaction: the stored embedder becomes the new one, the
 * old vectors are cleared and the old vector indexes dropped. Then rows are embedded in
 * batches; a reindex that is interrupted resumes where it stopped when run again, and in
 * between keyword search keeps working (rows without a vector are simply not vector hits).
 */
const TEXT: Record<
  VectorTable,
  {
    columns: string;
    text: (r: Record<string, string>) => string;
    live?: string;
    /** What to read the rows from when not the table itself. */
    from?: string;
  }
> = {
  episodes: { columns: 'subject, summary, episode', text: (r) => episodeEmbeddingText(r as never) },
  atomic_facts: { columns: 'content', text: (r) => r['content'] ?? '' },
  agent_cases: { columns: 'task_intent, approach', text: (r) => caseEmbeddingText(r as never) },
  agent_skills: { columns: 'name, description, content', text: (r) => skillEmbeddingText(r as never) },
  // Topics are deleted outright, never soft-deleted.
  kb_topics: { columns: 'name, summary, content', text: (r) => topicEmbeddingText(r as never), live: 'true' },
  messages: { columns: 'content', text: (r) => r['content'] ?? '', from: `${LIVE_MESSAGES} messages` },
};

const liveRows = (t: VectorTable) => TEXT[t].live ?? 'deleted_at IS NULL';
const rowsOf = (t: VectorTable) => TEXT[t].from ?? t;

export interface ReindexProgress {
  done: number;
  total: number;
  table: VectorTable;
}

export async function reindex(
  db: Db,
  embedder: Embedder,
  onProgress: (p: ReindexProgress) => void = () => {},
  batchSize = 64,
): Promise<{ embedded: number; switched: boolean }> {
  const want = { id: embedder.id, dimensions: embedder.dimensions };
  const switched = await db.transaction(async (tx) => {
    const rows = await tx.query<{ value: { id: string; dimensions: number } }>(
      `SELECT value FROM engram_settings WHERE tenant_id = '' AND key = 'embedding' FOR UPDATE`,
    );
    const have = rows[0]?.value;
    if (have && have.id === want.id && have.dimensions === want.dimensions) return false;
    for (const table of VECTOR_TABLES) {
      await dropHnswIndexes(tx, table);
      await tx.query(`UPDATE ${table} SET embedding = NULL WHERE embedding IS NOT NULL`);
    }
    await tx.query(
      `INSERT INTO engram_settings (tenant_id, key, value) VALUES ('', 'embedding', $1::jsonb)
       ON CONFLICT (tenant_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [JSON.stringify(want)],
    );
    return true;
  });

  const counts = await Promise.all(
    VECTOR_TABLES.map(async (t) => {
      const r = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${rowsOf(t)} WHERE embedding IS NULL AND ${liveRows(t)}`,
      );
      return r[0]?.n ?? 0;
    }),
  );
  const total = counts.reduce((a, b) => a + b, 0);
  let done = 0;
  for (const table of VECTOR_TABLES) {
    const spec = TEXT[table];
    for (;;) {
      const rows = await db.query<Record<string, string>>(
        `SELECT tenant_id, id, ${spec.columns} FROM ${rowsOf(table)}
         WHERE embedding IS NULL AND ${liveRows(table)} ORDER BY tenant_id, id LIMIT ${batchSize}`,
      );
      if (!rows.length) break;
      const vectors = await embedder.embed(rows.map(spec.text));
      await db.transaction(async (tx) => {
        for (const [i, r] of rows.entries())
          await tx.query(`UPDATE ${table} SET embedding = $3::vector WHERE tenant_id = $1 AND id = $2`, [
            r['tenant_id'],
            r['id'],
            vectorText(vectors[i]!),
          ]);
      });
      done += rows.length;
      onProgress({ done, total, table });
    }
  }
  return { embedded: done, switched };
}
