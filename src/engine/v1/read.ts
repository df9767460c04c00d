import type { GetData } from '../../contract/memory-read.js';
import type { SearchData } from '../../contract/search.js';
import type { V1MemoryType } from '../../contract/v1.js';
import type { Ctx } from '../memory/deps.js';
import type { MemoryService } from '../memory/service.js';
import type { SearchService } from '../search/service.js';

/**
 * Get and search in v1 terms, shared by the v1 Cloud (`/api/v1/memories/*`) and
 * self-hosted (`/api/v1/memory/*`) interfaces: the v1 memory types map to the v2 ones
 * (`episodic_memory` -> episode, `agent_memory` -> agent cases and skills), answers list
 * every kind under `memories` with its v1 type name, and search adds the unextracted
 * messages and the single best agent memory. Each interface says how a record looks in
 * its terms (`V1Face.record`) and which partition and session it reads.
 */
export type AnyItem = {
  id: string;
  session_id?: string | null;
  timestamp?: string | null;
  updated_at?: string | null;
  score?: number | null;
};

/** A v2 record under its v1 type name, without the v2 partition (the v1 store's is reserved). */
export function v1Record(item: AnyItem, memoryType: V1MemoryType) {
  const {
    app_id: _a,
    project_id: _p,
    score,
    ...rest
  } = item as AnyItem & { app_id?: string; project_id?: string };
  return {
    ...rest,
    memory_type: memoryType,
    timestamp: item.timestamp ?? item.updated_at ?? null,
    ...(score == null ? {} : { score }),
  };
}

export interface V1Face<M> {
  /** The engine partition the interface's memories live in. */
  scope: { app_id: string; project_id: string };
  /** Only memories of this session, when given. */
  session: string | null;
  record: (item: AnyItem, memoryType: V1MemoryType) => M;
}

const V2_TYPE = { episodic_memory: 'episode', profile: 'profile', agent_memory: 'agent_case' } as const;

export async function v1Get<M>(
  memory: MemoryService,
  ctx: Ctx,
  face: V1Face<M>,
  q: { owner: string; memoryType: V1MemoryType; page: number; pageSize: number },
) {
  const type = V2_TYPE[q.memoryType];
  const data: GetData = await memory.get(ctx, {
    ...face.scope,
    page: q.page,
    page_size: q.pageSize,
    sort_by: 'timestamp',
    sort_order: 'desc',
    with_readable_episode: false,
    filters: null,
    memory_type: type,
    ...(type === 'agent_case' ? { agent_id: q.owner } : { user_id: q.owner }),
    ...(face.session && type !== 'profile' ? { session_id: face.session } : {}),
  });
  const memories = [
    ...data.episodes.map((e) => face.record(e, 'episodic_memory')),
    ...data.profiles.map((p) => face.record(p, 'profile')),
    ...data.agent_cases.map((a) => face.record(a, 'agent_memory')),
  ];
  return {
    memories,
    total_count: data.total_count,
    has_more: (q.page - 1) * q.pageSize + memories.length < data.total_count,
  };
}

export async function v1Search<M>(
  searcher: SearchService,
  ctx: Ctx,
  face: V1Face<M>,
  q: {
    owner: string;
    memoryTypes: readonly V1MemoryType[];
    query: string;
    method: 'keyword' | 'vector' | 'hybrid' | 'agentic';
    topK: number;
  },
): Promise<{
  memories: M[];
  unprocessed: SearchData['unprocessed_messages'];
  agent_memory: M | null;
  total_count: number;
}> {
  const types = new Set(q.memoryTypes);
  const base = {
    ...face.scope,
    query: q.query,
    method: q.method,
    top_k: q.topK,
    radius: null,
    min_score: null,
    with_readable_episode: false,
    enable_llm_rerank: false,
    filters: face.session ? { session_id: face.session } : null,
  };
  const memories: M[] = [];
  let unprocessed: SearchData['unprocessed_messages'] = [];
  let agentMemory: M | null = null;
  if (types.has('episodic_memory') || types.has('profile')) {
    const onlyProfile = !types.has('episodic_memory');
    // raw_messages come with the user's memory types, whichever were asked for.
    const r = await searcher.search(
      ctx,
      {
        ...base,
        user_id: q.owner,
        memory_type: onlyProfile ? 'profile' : types.has('profile') ? null : 'episode',
        include_profile: types.has('profile'),
      },
      { unprocessed: true },
    );
    if (types.has('episodic_memory'))
      memories.push(...r.episodes.map((e) => face.record(e, 'episodic_memory')));
    if (types.has('profile')) memories.push(...r.profiles.map((p) => face.record(p, 'profile')));
    unprocessed = r.unprocessed_messages;
  }
  if (types.has('agent_memory')) {
    const r = await searcher.search(ctx, {
      ...base,
      agent_id: q.owner,
      memory_type: null,
      include_profile: false,
    });
    const agent = [...r.agent_cases, ...r.agent_skills]
      .sort((a, b) => b.score - a.score)
      .map((a) => face.record(a as AnyItem, 'agent_memory'));
    agentMemory = agent[0] ?? null;
    memories.push(...agent);
  }
  return { memories, unprocessed, agent_memory: agentMemory, total_count: memories.length };
}
