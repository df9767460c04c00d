import { describe, expect, it } from 'vitest';
import { GetInput } from '../../src/contract/memory-read.js';
import { SearchData, SearchInput } from '../../src/contract/search.js';
import { fromZod } from '../../src/core/errors.js';

/** What the REST layer answers for a body: 422 with loc/param as parseBody reports it. */
function validate(body: unknown) {
  const r = SearchInput.safeParse(body);
  if (r.success) return { status: 200 as const, data: r.data };
  const err = fromZod(r.error);
  return { status: err.status, code: err.code, param: err.param, loc: err.issues.map((i) => i.loc) };
}

describe('search request validation (422 cases)', () => {
  it('applies the OpenAPI defaults', () => {
    expect(validate({ user_id: 'u', query: 'q' })).toMatchObject({
      status: 200,
      data: {
        app_id: 'default',
        project_id: 'default',
        method: 'hybrid',
        top_k: -1,
        include_profile: false,
        with_readable_episode: false,
        enable_llm_rerank: false,
      },
    });
  });

  it.each([
    ['no owner', { query: 'q' }, 'user_id'],
    ['both owners', { user_id: 'u', agent_id: 'a', query: 'q' }, 'agent_id'],
    ['missing query', { user_id: 'u' }, 'query'],
    ['empty query', { user_id: 'u', query: '' }, 'query'],
    ['white-space query', { user_id: 'u', query: ' \n\t ' }, 'query'],
    ['unknown method', { user_id: 'u', query: 'q', method: 'semantic' }, 'method'],
    ['top_k 0', { user_id: 'u', query: 'q', top_k: 0 }, 'top_k'],
    ['top_k 101', { user_id: 'u', query: 'q', top_k: 101 }, 'top_k'],
    ['top_k -2', { user_id: 'u', query: 'q', top_k: -2 }, 'top_k'],
    ['top_k 2.5', { user_id: 'u', query: 'q', top_k: 2.5 }, 'top_k'],
    ['radius above 1', { user_id: 'u', query: 'q', radius: 1.5 }, 'radius'],
    ['radius below 0', { user_id: 'u', query: 'q', radius: -0.1 }, 'radius'],
    ['min_score above 1', { user_id: 'u', query: 'q', min_score: 2 }, 'min_score'],
    ['min_score as string', { user_id: 'u', query: 'q', min_score: '0.5' }, 'min_score'],
    ['include_profile not boolean', { user_id: 'u', query: 'q', include_profile: 'yes' }, 'include_profile'],
    ['unknown field', { user_id: 'u', query: 'q', limit: 3 }, ''],
    ['bad app_id', { user_id: 'u', query: 'q', app_id: 'a b' }, 'app_id'],
    [
      'user owner with agent memory type',
      { user_id: 'u', query: 'q', memory_type: 'agent_case' },
      'memory_type',
    ],
    ['agent owner with episode type', { agent_id: 'a', query: 'q', memory_type: 'episode' }, 'memory_type'],
    ['unknown filter field', { user_id: 'u', query: 'q', filters: { group_id: 'g' } }, 'filters'],
    [
      'unknown filter operator',
      { user_id: 'u', query: 'q', filters: { timestamp: { after: 1 } } },
      'filters.timestamp',
    ],
    [
      'empty operator object',
      { user_id: 'u', query: 'q', filters: { session_id: {} } },
      'filters.session_id',
    ],
    ['empty in list', { user_id: 'u', query: 'q', filters: { sender_id: { in: [] } } }, 'filters.sender_id'],
  ])('%s -> 422', (_name, body, param) => {
    const r = validate(body);
    expect(r.status).toBe(422);
    expect(r).toMatchObject({ code: 'InvalidParameter' });
    if (param) expect(r.param).toContain(param);
    expect((r as { loc: unknown[][] }).loc[0]![0]).toBe('body');
  });

  it('accepts the boundary values', () => {
    for (const extra of [
      { top_k: 1 },
      { top_k: 100 },
      { top_k: -1 },
      { radius: 0 },
      { radius: 1 },
      { min_score: 0 },
      { min_score: 1 },
    ])
      expect(validate({ user_id: 'u', query: 'q', ...extra }).status).toBe(200);
    expect(validate({ agent_id: 'a', query: 'q', user_id: null }).status).toBe(200);
  });

  it('bounds the values and nodes of a whole filter tree: 422 naming filters', () => {
    // Within every per-list bound (OR 50, AND 50, in 100) yet 70,000 values: more than the
    // bind parameters of one PostgreSQL statement.
    const values = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
    const wide = {
      OR: Array.from({ length: 14 }, () => ({ AND: Array(50).fill({ session_id: { in: values(100) } }) })),
    };
    const nodes = { OR: Array.from({ length: 50 }, () => ({ AND: Array(20).fill({}) })) };
    for (const filters of [wide, nodes]) {
      const r = validate({ user_id: 'u', query: 'q', filters });
      expect(r).toMatchObject({ status: 422, code: 'InvalidParameter', param: 'filters' });
      expect(GetInput.safeParse({ memory_type: 'episode', user_id: 'u', filters }).success).toBe(false);
    }
    // 1,000 values, and 1,000 nodes, are accepted.
    const most = { AND: Array.from({ length: 10 }, () => ({ sender_id: { in: values(100) } })) };
    expect(validate({ user_id: 'u', query: 'q', filters: most }).status).toBe(200);
    const most2 = { OR: Array.from({ length: 37 }, () => ({ AND: Array(26).fill({ session_id: 's' }) })) };
    expect(validate({ user_id: 'u', query: 'q', filters: most2 }).status).toBe(200);
    expect(validate({ user_id: 'u', query: 'q', filters: { ...most, session_id: 's' } })).toMatchObject({
      status: 422,
      param: 'filters',
    });
  });

  it('the response schema requires every collection and the metadata', () => {
    const empty = {
      episodes: [],
      profiles: [],
      agent_cases: [],
      agent_skills: [],
      unprocessed_messages: [],
      messages: [],
    };
    const metadata = { method: 'hybrid', degraded: false, queries: ['q'], took_ms: 1 };
    expect(SearchData.safeParse({ ...empty, metadata }).success).toBe(true);
    expect(SearchData.safeParse({ ...empty, episodes: undefined, metadata }).success).toBe(false);
  });
});
