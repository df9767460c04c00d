import type { AgentCaseItem, AgentSkillItem, EpisodeItem } from '../contract/records.js';
import type { Db } from '../core/db.js';
import type { Ctx } from '../engine/memory/deps.js';
import { factsFor } from '../engine/memory/read.js';
import {
  CASE_COLUMNS,
  type CaseRow,
  caseItem,
  EPISODE_COLUMNS,
  type EpisodeRow,
  episodeItem,
  SKILL_COLUMNS,
  type SkillRow,
  skillItem,
} from '../engine/memory/serialize.js';

/**
 * The two reads MCP resources need that the memory service does not offer (yet): which
 * owners have memories of a kind (resources/list), and one memory by id. Read-only, one
 * tenant, live rows only. Candidates to move into MemoryService.
 */
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

export type ItemKind = 'episodes' | 'cases' | 'skills';
export type ItemOf = EpisodeItem | AgentCaseItem | AgentSkillItem;

/** One live memory by id within a partition, or undefined. */
export async function memoryById(
  db: Db,
  ctx: Ctx,
  kind: ItemKind,
  scope: { appId: string; projectId: string },
  id: string,
): Promise<ItemOf | undefined> {
  const where = 'tenant_id = $1 AND app_id = $2 AND project_id = $3 AND id = $4 AND deleted_at IS NULL';
  const params = [ctx.tenantId, scope.appId, scope.projectId, id.toLowerCase()];
  switch (kind) {
    case 'episodes': {
      const [row] = await db.query<EpisodeRow>(
        `SELECT ${EPISODE_COLUMNS} FROM episodes WHERE ${where}`,
        params,
      );
      if (!row) return undefined;
      const facts = await factsFor(db, ctx, [row.id]);
      return episodeItem(row, facts.get(row.id) ?? []);
    }
    case 'cases': {
      const [row] = await db.query<CaseRow>(`SELECT ${CASE_COLUMNS} FROM agent_cases WHERE ${where}`, params);
      return row ? caseItem(row) : undefined;
    }
    case 'skills': {
      const [row] = await db.query<SkillRow>(
        `SELECT ${SKILL_COLUMNS} FROM agent_skills WHERE ${where}`,
        params,
      );
      return row ? skillItem(row) : undefined;
    }
  }
}
