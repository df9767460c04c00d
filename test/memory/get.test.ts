import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { DAY, MIN, multiParty, T0, user } from '../helpers/messages.js';

describe.each(DRIVERS)('POST /api/v2/memory/get [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const get = (body: unknown) => s.call('POST', '/api/v2/memory/get', { key, body });

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    // three sessions for u1 on three days, one shared with u2
    for (const [i, session] of ['s1', 's2', 's3'].entries()) {
      await s.call('POST', '/api/v2/memory/add', {
        key,
        body: {
          session_id: session,
          messages: [
            user('u1', `Day ${i}: I went hiking near mountain number ${i} and loved it`, T0 + i * DAY, 'Una'),
            user(i === 2 ? 'u2' : 'u1', `Day ${i}: the weather was sunny`, T0 + i * DAY + MIN),
          ],
        },
      });
      await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: session } });
    }
    await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 'mp', messages: multiParty(T0 + 5 * DAY) },
    });
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'mp' } });
  });
  afterAll(() => s.close());

  it('lists episodes newest first with totals and atomic facts', async () => {
    const r = await get({ memory_type: 'episode', user_id: 'u1' });
    expect(r.status).toBe(200);
    const { episodes, total_count, count, profiles, agent_cases, agent_skills } = r.body.data;
    expect(total_count).toBe(3);
    expect(count).toBe(3);
    expect(profiles).toEqual([]);
    expect(agent_cases).toEqual([]);
    expect(agent_skills).toEqual([]);
    expect(episodes.map((e: any) => e.session_id)).toEqual(['s3', 's2', 's1']);
    for (const e of episodes) {
      expect(e.id).toMatch(/^[0-9a-f]{24}$/);
      expect(e).toMatchObject({
        app_id: 'default',
        project_id: 'default',
        user_id: 'u1',
        type: 'Conversation',
        tags: [],
      });
      expect(e.episode.length).toBeGreaterThan(0);
      expect(e.source_message_ids.length).toBe(2);
      expect(Array.isArray(e.atomic_facts)).toBe(true);
      expect(e.readable_episode).toBeNull();
      expect(e).not.toHaveProperty('edited_at');
    }
    expect(new Date(episodes[0].timestamp).getTime()).toBe(T0 + 2 * DAY);
  });

  it('pages and sorts', async () => {
    const p1 = await get({ memory_type: 'episode', user_id: 'u1', page_size: 2, sort_order: 'asc' });
    const p2 = await get({ memory_type: 'episode', user_id: 'u1', page_size: 2, page: 2, sort_order: 'asc' });
    expect(p1.body.data.episodes.map((e: any) => e.session_id)).toEqual(['s1', 's2']);
    expect(p2.body.data.episodes.map((e: any) => e.session_id)).toEqual(['s3']);
    expect(p2.body.data).toMatchObject({ total_count: 3, count: 1 });
    const readable = await get({
      memory_type: 'episode',
      user_id: 'u1',
      page_size: 1,
      with_readable_episode: true,
    });
    expect(readable.body.data.episodes[0].readable_episode).toContain(readable.body.data.episodes[0].episode);
  });

  it('applies the filter DSL and top-level conditions', async () => {
    const bySession = await get({ memory_type: 'episode', user_id: 'u1', filters: { session_id: 's2' } });
    expect(bySession.body.data.episodes.map((e: any) => e.session_id)).toEqual(['s2']);
    const inList = await get({
      memory_type: 'episode',
      user_id: 'u1',
      filters: { session_id: { in: ['s1', 's3'] } },
    });
    expect(inList.body.data.total_count).toBe(2);
    const range = await get({
      memory_type: 'episode',
      user_id: 'u1',
      filters: { timestamp: { gte: T0 + DAY, lt: new Date(T0 + 2 * DAY).toISOString() } },
    });
    expect(range.body.data.episodes.map((e: any) => e.session_id)).toEqual(['s2']);
    const or = await get({
      memory_type: 'episode',
      user_id: 'u1',
      filters: { OR: [{ session_id: 's1' }, { sender_id: 'u2' }] },
    });
    expect(or.body.data.episodes.map((e: any) => e.session_id).sort()).toEqual(['s1', 's3']);
    const ne = await get({
      memory_type: 'episode',
      user_id: 'u1',
      filters: { AND: [{ session_id: { ne: 's1' } }] },
    });
    expect(ne.body.data.total_count).toBe(2);
    const top = await get({ memory_type: 'episode', user_id: 'u1', session_id: 's1' });
    expect(top.body.data.episodes.map((e: any) => e.session_id)).toEqual(['s1']);
  });

  it('shows a shared episode to each human in it', async () => {
    const u2 = await get({ memory_type: 'episode', user_id: 'u2' });
    expect(u2.body.data.episodes.map((e: any) => e.session_id)).toEqual(['s3']);
    expect(u2.body.data.episodes[0].user_id).toBe('u2');
  });

  it('returns profiles, agent cases for their owners', async () => {
    const prof = await get({ memory_type: 'profile', user_id: 'alice' });
    expect(prof.body.data.profiles).toHaveLength(1);
    const items = [
      ...prof.body.data.profiles[0].profile_data.explicit_info,
      ...prof.body.data.profiles[0].profile_data.implicit_traits,
    ];
    expect(items.length).toBeGreaterThan(0);
    for (const i of items) expect(i.item_id).toMatch(/^(ei|it)_[0-9a-f]{24}$/);
    const cases = await get({ memory_type: 'agent_case', agent_id: 'helper-bot' });
    expect(cases.body.data.agent_cases).toHaveLength(1);
    expect(cases.body.data.agent_cases[0]).toMatchObject({ agent_id: 'helper-bot', session_id: 'mp' });
  });

  it('returns empty results for a mismatched app_id/project_id pair', async () => {
    const r = await get({ memory_type: 'episode', user_id: 'u1', app_id: 'other' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ episodes: [], total_count: 0, count: 0 });
  });

  it.each([
    ['no owner', { memory_type: 'episode' }, 'user_id'],
    ['both owners', { memory_type: 'episode', user_id: 'u1', agent_id: 'a' }, 'agent_id'],
    ['agent type for a user', { memory_type: 'agent_case', user_id: 'u1' }, 'memory_type'],
    ['user type for an agent', { memory_type: 'profile', agent_id: 'a' }, 'memory_type'],
    ['unknown memory_type', { memory_type: 'raw_message', user_id: 'u1' }, 'memory_type'],
    ['page 0', { memory_type: 'episode', user_id: 'u1', page: 0 }, 'page'],
    ['page_size 101', { memory_type: 'episode', user_id: 'u1', page_size: 101 }, 'page_size'],
    ['unknown field', { memory_type: 'episode', user_id: 'u1', colour: 'red' }, ''],
    ['unknown filter field', { memory_type: 'episode', user_id: 'u1', filters: { topic: 'x' } }, 'filters'],
    [
      'bad operator',
      { memory_type: 'episode', user_id: 'u1', filters: { timestamp: { after: 1 } } },
      'filters.timestamp',
    ],
    [
      'bad timestamp value',
      { memory_type: 'episode', user_id: 'u1', filters: { timestamp: { gte: 'soon' } } },
      'filters.timestamp.gte',
    ],
  ])('rejects %s with 422', async (_n, body, param) => {
    const r = await get(body);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('InvalidParameter');
    expect(r.body.param ?? '').toBe(param);
  });
});
