import type { Db } from '../../core/db.js';
import type { Ctx } from './deps.js';

/** Which owners hold memories of one kind, a page at a time (MCP resource lists, the inspector). */
export type OwnerKind = 'episodes' | 'profile' | 'cases' | 'skills';

export interface OwnerRow {
  app_id: string;
  project_id: string;
  owner: string;
}

const OWNER_SQL: Record<OwnerKind, string> = {
  episodes: `SELECT DISTINCT app_id, project_id, unnest(owner_ids) AS owner FROM episodes
             WHERE tenant_id = $1 AND deleted_at IS NULL`,
  profile: `SELECT app_id, project_id, user_id AS owner FROM profiles WHERE tenant_id = $1 AND deleted_at IS NULL`,
  cases: `SELECT DISTINCT app_id, project_id, agent_id AS owner FROM agent_cases
          WHERE tenant_id = $1 AND deleted_at IS NULL`,
  skills: `SELECT DISTINCT app_id, project_id, agent_id AS owner FROM agent_skills
           WHERE tenant_id = $1 AND deleted_at IS NULL`,
};

/** A page of the owners holding memories of one kind, in a stable order. */
export async function listOwners(
  db: Db,
  ctx: Ctx,
  kind: OwnerKind,
  offset: number,
  limit: number,
): Promise<OwnerRow[]> {
  return db.query<OwnerRow & Record<string, unknown>>(
    `SELECT * FROM (${OWNER_SQL[kind]}) o ORDER BY app_id, project_id, owner LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`,
    [ctx.tenantId],
  );
}
