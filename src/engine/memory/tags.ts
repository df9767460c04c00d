import { MAX_TAGS_PER_MEMORY, type TagData } from '../../contract/tags.js';
import type { Db } from '../../core/db.js';
import { type Ctx, RESERVED_APP_IDS } from './deps.js';

export type TagChange = 'bind' | 'unbind' | 'replace';

/** The request's tags ($3, a JSON array, deduplicated) as text[], in order. */
const REQ = 'ARRAY(SELECT t FROM jsonb_array_elements_text($3::jsonb) WITH ORDINALITY AS r(t, i) ORDER BY i)';

/** The next tag set of a row, from its `tags` and the request's. */
const NEXT: Record<TagChange, string> = {
  // existing tags first, then the new ones, each once, in first-seen order
  bind: `ARRAY(SELECT t FROM unnest(tags || ${REQ}) WITH ORDINALITY AS u(t, i) GROUP BY t ORDER BY min(i))`,
  unbind: `ARRAY(SELECT t FROM unnest(tags) WITH ORDINALITY AS u(t, i) WHERE t <> ALL(${REQ}) ORDER BY i)`,
  replace: REQ,
};

/**
 * Binds, unbinds or replaces tags on live episodes of the tenant, by id (tags are scoped
 * by the ids, not by app or project). A memory matches when it exists and, for bind, stays
 * within MAX_TAGS_PER_MEMORY; matching memories whose set would not change are left as
 * they are. One statement: all matching memories change, or none.
 */
export async function changeTags(
  db: Db,
  ctx: Ctx,
  change: TagChange,
  memoryIds: readonly string[],
  tags: readonly string[],
): Promise<TagData> {
  const ids = [...new Set(memoryIds.map((id) => id.toLowerCase()))];
  const rows = await db.query<{ matched: number }>(
    `WITH target AS (
       SELECT id, tags, ${NEXT[change]} AS next FROM episodes
        WHERE tenant_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))
          AND deleted_at IS NULL AND app_id NOT LIKE '${RESERVED_APP_IDS}'
     ), fits AS (SELECT * FROM target WHERE cardinality(next) <= ${MAX_TAGS_PER_MEMORY}),
     changed AS (
       UPDATE episodes e SET tags = fits.next FROM fits
        WHERE e.tenant_id = $1 AND e.id = fits.id AND e.tags IS DISTINCT FROM fits.next
       RETURNING e.id
     )
     SELECT (SELECT count(*) FROM fits)::int AS matched, (SELECT count(*) FROM changed)::int AS changed`,
    [ctx.tenantId, JSON.stringify(ids), JSON.stringify([...new Set(tags)])],
  );
  return { matched: rows[0]?.matched ?? 0, requested: ids.length };
}
