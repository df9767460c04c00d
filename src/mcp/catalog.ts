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
 * One memory by id, for MCP resources (which owners hold memories: engine/memory/owners.ts).
 * Read-only, one tenant, live rows only.
 */
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
