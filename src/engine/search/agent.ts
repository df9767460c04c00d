import type { SearchData } from '../../contract/search.js';
import {
  CASE_COLUMNS,
  type CaseRow,
  caseItem,
  SKILL_COLUMNS,
  type SkillRow,
  skillItem,
} from '../memory/serialize.js';
import { mergeQueries, type PreparedQuery, type RankDeps, type Route, rankEach, scoreMap } from './hybrid.js';
import { caseTarget, type SearchScope, skillTarget, type Target } from './scope.js';
import { round } from './score.js';

/** The agent path: an agent's cases and skills, each ranked under the route like episodes. */
export type SearchCase = SearchData['agent_cases'][number];
export type SearchSkill = SearchData['agent_skills'][number];

export interface AgentQuery {
  route: Route;
  queries: PreparedQuery[];
  weights?: number[];
  pool: number;
  radius?: number | null | undefined;
}

async function rank(d: RankDeps, t: () => Target, q: AgentQuery): Promise<[string, number][]> {
  const maps = (await rankEach(d, t, q.route, q.queries, q.pool, q.radius)).map(scoreMap);
  return [...mergeQueries(maps, q.weights).entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export const rankCases = (d: RankDeps, s: SearchScope, q: AgentQuery) => rank(d, () => caseTarget(s), q);
export const rankSkills = (d: RankDeps, s: SearchScope, q: AgentQuery) => rank(d, () => skillTarget(s), q);

async function load<R extends { id: string }>(
  d: RankDeps,
  scope: SearchScope,
  table: string,
  columns: string,
  chosen: [string, number][],
): Promise<Map<string, R>> {
  if (!chosen.length) return new Map();
  const rows = await d.db.query<R & Record<string, unknown>>(
    `SELECT ${columns} FROM ${table} WHERE tenant_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
    [scope.tenantId, JSON.stringify(chosen.map(([id]) => id))],
  );
  return new Map(rows.map((r) => [r.id, r as R]));
}

export async function loadCases(
  d: RankDeps,
  scope: SearchScope,
  chosen: [string, number][],
): Promise<SearchCase[]> {
  const rows = await load<CaseRow>(d, scope, 'agent_cases', CASE_COLUMNS, chosen);
  return chosen.flatMap(([id, score]) => {
    const r = rows.get(id);
    return r ? [{ ...caseItem(r), score: round(score) }] : [];
  });
}

export async function loadSkills(
  d: RankDeps,
  scope: SearchScope,
  chosen: [string, number][],
): Promise<SearchSkill[]> {
  const rows = await load<SkillRow>(d, scope, 'agent_skills', SKILL_COLUMNS, chosen);
  return chosen.flatMap(([id, score]) => {
    const r = rows.get(id);
    return r ? [{ ...skillItem(r), score: round(score) }] : [];
  });
}
