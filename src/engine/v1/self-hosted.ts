import type { FlushData } from '../../contract/memory-write.js';
import type {
  V1MemoryAddInput,
  V1MemoryGetInput,
  V1MemorySearchInput,
  V1SelfMemory,
} from '../../contract/v1-memory.js';
import type { Ctx } from '../memory/deps.js';
import type { MemoryService } from '../memory/service.js';
import type { SearchService } from '../search/service.js';
import { type AnyItem, type V1Face, v1Get, v1Record, v1Search } from './read.js';

/**
 * The v1 store partition of a self-hosted v1 partition: its app_id gets the reserved
 * `v1:self:` prefix (a colon, which the v2 scope pattern rejects), so v2 never reads or
 * changes it, and v1 Cloud (`v1:cloud`) stays apart from it.
 */
export const V1_SELF_PREFIX = 'v1:self:';
export const v1SelfScope = (appId: string, projectId: string) => ({
  app_id: `${V1_SELF_PREFIX}${appId}`,
  project_id: projectId,
});

type Partition = { app_id: string; project_id: string };

const face = (p: Partition, session: string | null | undefined): V1Face<V1SelfMemory> => ({
  scope: v1SelfScope(p.app_id, p.project_id),
  session: session ?? null,
  record: (item: AnyItem, memoryType) => ({
    ...v1Record(item, memoryType),
    session_id: item.session_id ?? null,
    app_id: p.app_id,
    project_id: p.project_id,
  }),
});

/**
 * The self-hosted v1 memory operations (`/api/v1/memory/*`) on the memory engine, in the
 * v1 store: the caller's partition maps to a reserved one (v1SelfScope), and every answer
 * names the caller's partition again.
 */
export class V1SelfHostedService {
  constructor(
    private readonly memory: MemoryService,
    private readonly searcher: SearchService,
  ) {}

  async add(ctx: Ctx, input: V1MemoryAddInput) {
    const { data } = await this.memory.add(ctx, {
      ...input,
      ...v1SelfScope(input.app_id, input.project_id),
      async_mode: false,
    });
    return {
      message_count: data.message_count,
      status: data.status === 'extracted' ? 'extracted' : 'accumulated',
    } as const;
  }

  flush(ctx: Ctx, input: Partition & { session_id: string }): Promise<FlushData> {
    return this.memory.flush(ctx, {
      ...v1SelfScope(input.app_id, input.project_id),
      session_id: input.session_id,
    });
  }

  get(ctx: Ctx, input: V1MemoryGetInput) {
    return v1Get(this.memory, ctx, face(input, input.session_id), {
      owner: (input.user_id ?? input.agent_id) as string,
      memoryType: input.memory_type,
      page: input.page,
      pageSize: input.page_size,
    });
  }

  async search(ctx: Ctx, input: V1MemorySearchInput) {
    const r = await v1Search(this.searcher, ctx, face(input, input.session_id), {
      owner: (input.user_id ?? input.agent_id) as string,
      memoryTypes: input.memory_types,
      query: input.query,
      method: input.retrieve_method,
      topK: input.top_k,
    });
    return {
      memories: r.memories,
      raw_messages: r.unprocessed.map((m) => ({ ...m, app_id: input.app_id, project_id: input.project_id })),
      agent_memory: r.agent_memory,
      total_count: r.total_count,
    };
  }
}
