import type { Db } from '../../core/db.js';
import type { SearchScope } from './scope.js';

/** An owner with more live episodes than this is looked for among the scope's newest ones only. */
const FEW_EPISODES = 5000;
/** The scope's newest episodes read for an owner with many (a bound on the statement's cost). */
const RECENT_EPISODES = 500;

/**
 * The time of the owner's newest live episode in the scope (Unix ms), or undefined: what
 * "yesterday" means in a conversation replayed from the past. One statement whose cost is
 * bounded whatever the sizes: an owner with few episodes (her count in search_counts) is
 * read through the owner index, all of them; one with many among the scope's 500 newest by
 * the time index (undefined when none of them is hers). The obvious `ORDER BY ts DESC LIMIT
 * 1` walks the time index back past every other owner's episode to a small owner's newest:
 * 2.4 s on the 100,000-episode bench store, against 1-13 ms for this one.
 */
export async function ownerNewest(
  db: Db,
  scope: SearchScope,
  few = FEW_EPISODES,
): Promise<number | undefined> {
  const rows = await db.query<{ ts: string | number | null }>(
    `WITH n AS (SELECT coalesce(sum(docs), 0) AS docs FROM search_counts
                WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND kind = 'episode' AND owner_id = $4 AND term = '')
     SELECT max(ts) AS ts FROM (
       SELECT r.ts FROM (SELECT ts, owner_ids FROM episodes
                         WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND deleted_at IS NULL
                         ORDER BY ts DESC LIMIT ${RECENT_EPISODES}) r
       WHERE (SELECT docs FROM n) > $5 AND r.owner_ids @> ARRAY[$4]::text[]
       UNION ALL
       SELECT max(e.ts + 0) FROM episodes e
       WHERE (SELECT docs FROM n) <= $5 AND e.tenant_id = $1 AND e.app_id = $2 AND e.project_id = $3
         AND e.owner_ids @> ARRAY[$4]::text[] AND e.deleted_at IS NULL) x`,
    [scope.tenantId, scope.appId, scope.projectId, scope.ownerId, few],
  );
  const ts = rows[0]?.ts;
  return ts == null ? undefined : Number(ts);
}
