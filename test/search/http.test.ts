import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';

/** POST /api/v2/memory/search end to end: real HTTP, the configured (offline) providers. */
describe.each(DRIVERS)('POST /api/v2/memory/search over HTTP [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let ids: string[];
  const search = (body: unknown, k = key) => s.call('POST', '/api/v2/memory/search', { key: k, body });
  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    const r = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'garden',
        messages: [
          user('iris', 'I planted twelve tomato seedlings in my greenhouse yesterday', T0, 'Iris'),
          user('iris', 'My neighbour Tom gave me basil cuttings too', T0 + MIN, 'Iris'),
        ],
      },
    });
    ids = r.body.data.message_ids;
  });
  afterAll(() => s.close());

  it('finds a fresh message at once as an unprocessed message, then its extracted memory', async () => {
    const before = await search({ user_id: 'iris', query: 'tomato seedlings' });
    expect(before.status).toBe(200);
    expect(before.body.data.episodes).toEqual([]);
    expect(before.body.data.unprocessed_messages.map((m: any) => m.id)).toContain(ids[0]);
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'garden' } });
    for (const method of ['keyword', 'vector', 'hybrid', 'agentic']) {
      const r = await search({
        user_id: 'iris',
        query: 'tomato seedlings greenhouse',
        method,
        include_profile: true,
      });
      expect(r.status).toBe(200);
      const { episodes, profiles, agent_cases, agent_skills, unprocessed_messages, metadata } = r.body.data;
      expect(episodes.length).toBeGreaterThan(0);
      expect(episodes[0].score).toBeGreaterThan(0);
      expect(episodes[0].source_message_ids).toEqual(expect.arrayContaining([ids[0]]));
      expect(Array.isArray(profiles) && Array.isArray(agent_cases) && Array.isArray(agent_skills)).toBe(true);
      expect(unprocessed_messages).toEqual([]);
      expect(metadata.method).toBeTruthy();
      if (method === 'agentic') expect(metadata.degraded).toBe(true);
    }
  });

  it("carries the answer's top_k best facts; /memory/get has every fact of the episode", async () => {
    const at = T0 + 10 * MIN;
    await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'pond',
        messages: [
          user('iris', 'I dug a small pond behind the greenhouse last weekend', at, 'Iris'),
          user('iris', 'My sister Lena visited on Sunday with her two dogs', at + MIN, 'Iris'),
          user('iris', 'I ordered three water lilies for the pond', at + 2 * MIN, 'Iris'),
          user('iris', 'Work has been quiet this month, so I read a mystery novel', at + 3 * MIN, 'Iris'),
        ],
      },
    });
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'pond' } });
    const all = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'iris', filters: { session_id: 'pond' } },
    });
    expect(all.status).toBe(200);
    const episode = all.body.data.episodes[0];
    const facts = new Map<string, string>(episode.atomic_facts.map((f: any) => [f.id, f.content]));
    expect(facts.size).toBeGreaterThanOrEqual(3);
    for (const top_k of [1, 2, 100]) {
      const r = await search({
        user_id: 'iris',
        query: 'water lilies pond',
        top_k,
        filters: { session_id: 'pond' },
      });
      expect(r.status).toBe(200);
      const [hit] = r.body.data.episodes;
      expect(hit.id).toBe(episode.id);
      const carried = hit.atomic_facts.map((f: any) => f.id);
      expect(carried.every((id: string) => facts.has(id))).toBe(true);
      expect(carried).toHaveLength(Math.min(top_k, facts.size));
      const scores = hit.atomic_facts.map((f: any) => f.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(facts.get(carried[0])).toMatch(/lilies|pond/);
    }
  });

  it('rejects bad searches with 422 and confines results to the tenant', async () => {
    for (const [body, param] of [
      [{ query: 'x' }, 'user_id'],
      [{ user_id: 'iris', agent_id: 'a', query: 'x' }, 'agent_id'],
      [{ user_id: 'iris', query: '' }, 'query'],
      [{ user_id: 'iris', query: '   ' }, 'query'],
      [{ user_id: 'iris', query: 'x', top_k: 0 }, 'top_k'],
      [{ user_id: 'iris', query: 'x', method: 'magic' }, 'method'],
      [{ user_id: 'iris', query: 'x', radius: 2 }, 'radius'],
      [{ user_id: 'iris', query: 'x', filters: { mood: 'happy' } }, 'filters'],
      [{ agent_id: 'a', query: 'x', memory_type: 'episode' }, 'memory_type'],
    ] as const) {
      const r = await search(body);
      expect(r.status).toBe(422);
      expect(r.body).toMatchObject({ code: 'InvalidParameter', param });
    }
    const other = await s.key('tenant-b');
    const r = await search({ user_id: 'iris', query: 'tomato seedlings' }, other);
    expect(r.body.data.episodes).toEqual([]);
    expect(r.body.data.unprocessed_messages).toEqual([]);
  });
});
