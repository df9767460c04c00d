import type { FilterNode } from '../../contract/filters.js';
import type { GetData, GetInput } from '../../contract/memory-read.js';
import type { Db, Sql } from '../../core/db.js';
import { compileFilter } from '../filters.js';
import type { Ctx } from './deps.js';
import {
  CASE_COLUMNS,
  type CaseRow,
  caseItem,
  EPISODE_COLUMNS,
  type EpisodeRow,
  episodeItem,
  type FactRow,
  PROFILE_COLUMNS,
  type ProfileRow,
  profileItem,
  SKILL_COLUMNS,
  type SkillRow,
  skillItem,
} from './serialize.js';

/**
 * get: one owner's memories of one type, filtered, sorted and paged. Filters apply to
 * episodes (session_id, sender_id over sender_ids, timestamp) and agent cases (session_id,
 * sender_id = agent, timestamp); profiles and skills have no session or event time, so
 * filters do not narrow them.
 */
export async function getMemories(db: Db, ctx: Ctx, input: GetInput): Promise<GetData> {
  const out: GetData = {
    episodes: [],
    profiles: [],
    agent_cases: [],
    agent_skills: [],
    total_count: 0,
    count: 0,
  };
  const filter = combinedFilter(input);
  const params: unknown[] = [ctx.tenantId, input.app_id, input.project_id];
  const owner = (input.user_id ?? input.agent_id)!;
  params.push(owner);
  const dir = input.sort_order === 'asc' ? 'ASC' : 'DESC';
  const limit = input.page_size;
  const offset = (input.page - 1) * input.page_size;
  const scope = 'tenant_id = $1 AND app_id = $2 AND project_id = $3 AND deleted_at IS NULL';

  const page = async <R>(table: string, columns: string, where: string, order: string) => {
    const [rows, total] = await Promise.all([
      db.query<R & Record<string, unknown>>(
        `SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY ${order} ${dir}, id ${dir} LIMIT ${limit} OFFSET ${offset}`,
        params,
      ),
      db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params),
    ]);
    out.total_count = total[0]?.n ?? 0;
    return rows as R[];
  };

  switch (input.memory_type) {
    case 'episode': {
      const cond = compileFilter(
        filter,
        {
          session_id: 'session_id',
          timestamp: 'ts',
          sender_id: { array: 'sender_ids' },
          tags: { array: 'tags' },
        },
        params,
      );
      const rows = await page<EpisodeRow>(
        'episodes',
        EPISODE_COLUMNS,
        `${scope} AND owner_ids @> ARRAY[$4]::text[] AND ${cond}`,
        input.sort_by === 'updated_at' ? 'updated_at' : 'ts',
      );
      const facts = await factsFor(
        db,
        ctx,
        rows.map((r) => r.id),
      );
      out.episodes = rows.map((r) =>
        episodeItem(r, facts.get(r.id) ?? [], owner, input.with_readable_episode),
      );
      break;
    }
    case 'profile': {
      const rows = await page<ProfileRow>(
        'profiles',
        PROFILE_COLUMNS,
        `${scope} AND user_id = $4`,
        'updated_at',
      );
      out.profiles = rows.map(profileItem);
      break;
    }
    case 'agent_case': {
      const cond = compileFilter(
        filter,
        { session_id: 'session_id', timestamp: 'ts', sender_id: 'agent_id' },
        params,
      );
      const rows = await page<CaseRow>(
        'agent_cases',
        CASE_COLUMNS,
        `${scope} AND agent_id = $4 AND ${cond}`,
        input.sort_by === 'updated_at' ? 'updated_at' : 'ts',
      );
      out.agent_cases = rows.map(caseItem);
      break;
    }
    case 'agent_skill': {
      const rows = await page<SkillRow>(
        'agent_skills',
        SKILL_COLUMNS,
        `${scope} AND agent_id = $4`,
        'updated_at',
      );
      out.agent_skills = rows.map(skillItem);
      break;
    }
  }
  out.count = out.episodes.length + out.profiles.length + out.agent_cases.length + out.agent_skills.length;
  return out;
}

/** The filters tree ANDed with the top-level conditions get also accepts. */
function combinedFilter(input: GetInput): FilterNode | undefined {
  const top: FilterNode = {};
  if (input.session_id !== undefined) top.session_id = input.session_id;
  if (input.sender_id !== undefined) top.sender_id = input.sender_id;
  if (input.timestamp !== undefined) top.timestamp = input.timestamp;
  const nodes = [input.filters, Object.keys(top).length ? top : undefined].filter(
    (n): n is FilterNode => !!n,
  );
  return nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : { AND: nodes };
}

/** Live atomic facts of the given episodes, grouped by episode. */
export async function factsFor(db: Sql, ctx: Ctx, episodeIds: string[]): Promise<Map<string, FactRow[]>> {
  const map = new Map<string, FactRow[]>();
  if (!episodeIds.length) return map;
  const rows = await db.query<FactRow>(
    `SELECT id, episode_id, content, source_message_ids FROM atomic_facts
     WHERE tenant_id = $1 AND deleted_at IS NULL AND episode_id IN (SELECT jsonb_array_elements_text($2::jsonb))
     ORDER BY ts, id`,
    [ctx.tenantId, JSON.stringify(episodeIds)],
  );
  for (const r of rows) {
    const list = map.get(r.episode_id) ?? [];
    list.push(r);
    map.set(r.episode_id, list);
  }
  return map;
}
