import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { expectV1Error } from '../helpers/v1.js';

const at = (minute: number) => new Date(Date.UTC(2025, 2, 3, 9, minute)).toISOString();

describe.each(DRIVERS)('legacy v1 (Cloud) [%s]', (driver) => {
  let s: TestServer;
  let v1: string;
  let v2: string;
  const post = (path: string, body: unknown, key = v1) => s.call('POST', path, { key, body });
  const say = (message_id: string, sender: string, content: string, minute: number, extra = {}) =>
    post('/api/v1/memories', {
      message_id,
      create_time: at(minute),
      sender,
      content,
      group_id: 'trip',
      group_name: 'Trip planning',
      ...extra,
    });

  beforeAll(async () => {
    s = await startTestServer(driver);
    v1 = await s.key('tenant-a', 'v1');
    v2 = await s.key('tenant-a', 'v2');
  });
  afterAll(() => s.close());

  it('answers v1 keys only, and v2 routes answer v2 keys only (403)', async () => {
    const r = await post('/api/v1/memories/get', { user_id: 'rosa' }, v2);
    expect(r.status).toBe(403);
    expectV1Error(r.body, 'Forbidden', '/api/v1/memories/get');
    const back = await post('/api/v2/memory/get', { memory_type: 'episode', user_id: 'rosa' }, v1);
    expect(back.status).toBe(403);
    expect(back.body).toMatchObject({ code: 'Forbidden', status_code: 403 });
    expect((await s.call('POST', '/api/v1/memories', { body: {} })).status).toBe(401);
    const v0 = await s.call('GET', '/api/v0/memories', { key: v1 });
    expect(v0.status).toBe(410);
  });

  it('add stores a message and answers the v1 envelope; a repeated message_id changes nothing', async () => {
    const r = await say('m-1', 'rosa', 'I am planning a cycling trip through the Dolomites in June', 0, {
      sender_name: 'Rosa',
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: 'ok',
      message: '',
      result: { saved_memories: [], count: 0, status_info: 'accumulated' },
    });
    const again = await say('m-1', 'rosa', 'something else entirely', 1);
    expect(again.body.result).toEqual({ saved_memories: [], count: 0, status_info: 'accumulated' });
    const n = await s.engram.db.query('SELECT * FROM v1_messages WHERE tenant_id = $1', ['tenant-a']);
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({ sender_name: 'Rosa', group_id: 'trip', role: 'user' });
  });

  it('rejects bad input with the v1 error body and stores nothing', async () => {
    const missing = await post('/api/v1/memories', { message_id: 'm-x', sender: 'rosa', content: 'hi' });
    expect(missing.status).toBe(422);
    expectV1Error(missing.body, 'InvalidParameter', '/api/v1/memories');
    expect(missing.body.message).toContain('create_time');
    const badTime = await say('m-y', 'rosa', 'hello', 0, { create_time: 'yesterday-ish' });
    expect(badTime.status).toBe(422);
    const ancient = await say('m-y', 'rosa', 'hello', 0, { create_time: '1999-12-31T23:00:00Z' });
    expect(ancient.status).toBe(422);
    expect(ancient.body.message).toContain('create_time');
    const badRole = await say('m-z', 'rosa', 'hello', 0, { role: 'system' });
    expect(badRole.status).toBe(422);
    const rows = await s.engram.db.query('SELECT message_id FROM v1_messages WHERE tenant_id = $1', [
      'tenant-a',
    ]);
    expect(rows.map((r) => r.message_id)).toEqual(['m-1']);
  });

  it('search shows unextracted messages as raw_messages with their v1 fields', async () => {
    await say('m-2', 'rosa', 'My friend Tomas will join the cycling trip with his gravel bike', 2, {
      sender_name: 'Rosa',
    });
    const r = await post('/api/v1/memories/search', {
      user_id: 'rosa',
      query: 'cycling trip',
      retrieve_method: 'keyword',
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.result.raw_messages.map((m: any) => m.message_id).sort()).toEqual(['m-1', 'm-2']);
    expect(r.body.result.raw_messages[0]).toMatchObject({
      group_id: 'trip',
      sender: 'rosa',
      sender_name: 'Rosa',
    });
    expect(r.body.result.agent_memory).toBeNull();
  });

  it('flush extracts; get and search answer v1 memories; v2 does not see them', async () => {
    const f = await post('/api/v1/memories/flush', { group_id: 'trip' });
    expect(f.status).toBe(200);
    expect(f.body.result).toEqual({ status_info: 'extracted' });
    const got = await post('/api/v1/memories/get', { user_id: 'rosa', memory_type: 'episodic_memory' });
    expect(got.status).toBe(200);
    expect(got.body.result.total_count).toBe(1);
    expect(got.body.result.has_more).toBe(false);
    const mem = got.body.result.memories[0];
    expect(mem).toMatchObject({ memory_type: 'episodic_memory', group_id: 'trip' });
    expect(mem.id).toMatch(/^[0-9a-f]{24}$/);
    expect(mem).not.toHaveProperty('app_id');
    const profile = await post('/api/v1/memories/get', { user_id: 'rosa', memory_type: 'profile' });
    expect(profile.body.result.memories.every((m: any) => m.memory_type === 'profile')).toBe(true);
    const found = await post('/api/v1/memories/search', {
      user_id: 'rosa',
      query: 'Dolomites cycling',
      retrieve_method: 'keyword',
    });
    expect(found.body.result.memories.map((m: any) => m.id)).toContain(mem.id);
    expect(found.body.result.raw_messages).toEqual([]);
    const inV2 = await post('/api/v2/memory/get', { memory_type: 'episode', user_id: 'rosa' }, v2);
    expect(inV2.status).toBe(200);
    expect(inV2.body.data.total_count).toBe(0);
    const searchV2 = await post(
      '/api/v2/memory/search',
      { user_id: 'rosa', query: 'Dolomites cycling', method: 'keyword' },
      v2,
    );
    expect(searchV2.body.data.episodes).toEqual([]);
    expect(searchV2.body.data.unprocessed_messages).toEqual([]);
  });

  it('an add that reaches an extraction boundary answers the saved memories', async () => {
    const far = Date.UTC(2025, 5, 1, 12, 0);
    for (let i = 0; i < 4; i++)
      await post('/api/v1/memories', {
        message_id: `n-${i}`,
        create_time: new Date(far + i * 60_000).toISOString(),
        sender: 'rosa',
        content: `Note ${i}: I booked the mountain hut number ${i + 3} for the trip`,
        group_id: 'huts',
      });
    // a day later: the gap closes the earlier segment
    const r = await post('/api/v1/memories', {
      message_id: 'n-late',
      create_time: new Date(far + 2 * 86_400_000).toISOString(),
      sender: 'rosa',
      content: 'Back home now, the huts were lovely',
      group_id: 'huts',
    });
    expect(r.body.result.status_info).toBe('extracted');
    expect(r.body.result.count).toBe(r.body.result.saved_memories.length);
    expect(r.body.result.count).toBeGreaterThan(0);
    expect(r.body.result.saved_memories[0]).toMatchObject({
      memory_type: 'episodic_memory',
      group_id: 'huts',
    });
  });

  it('senders and groups: PATCH renames, GET answers data, unknown group is 404 NotFound', async () => {
    const p = await s.call('PATCH', '/api/v1/senders/rosa', { key: v1, body: { name: 'Rosa M.' } });
    expect(p.status).toBe(200);
    expect(p.body.data).toMatchObject({ sender_id: 'rosa', name: 'Rosa M.' });
    expect(Date.parse(p.body.data.updated_at)).not.toBeNaN();
    const bad = await s.call('PATCH', '/api/v1/senders/rosa', { key: v1, body: { name: '' } });
    expect(bad.status).toBe(422);
    expectV1Error(bad.body, 'InvalidParameter', '/api/v1/senders/rosa');
    const g = await s.call('GET', '/api/v1/groups/trip', { key: v1 });
    expect(g.status).toBe(200);
    expect(g.body.data).toMatchObject({ group_id: 'trip', name: 'Trip planning', description: '' });
    const none = await s.call('GET', '/api/v1/groups/nope', { key: v1 });
    expect(none.status).toBe(404);
    expectV1Error(none.body, 'NotFound', '/api/v1/groups/nope');
    const task = await s.call('GET', `/api/v1/tasks/task_${'0'.repeat(24)}`, { key: v1 });
    expect(task.status).toBe(404);
    expectV1Error(task.body, 'NotFound', `/api/v1/tasks/task_${'0'.repeat(24)}`);
  });

  it('delete: one memory by id, then by owner, answers 204 with no body; unknown id is 404', async () => {
    const before = await post('/api/v1/memories/get', { user_id: 'rosa' });
    const total = before.body.result.total_count as number;
    const id = before.body.result.memories[0].id as string;
    const d = await post('/api/v1/memories/delete', { memory_id: id });
    expect(d.status).toBe(204);
    expect(d.body).toBeUndefined();
    const after = await post('/api/v1/memories/get', { user_id: 'rosa' });
    expect(after.body.result.total_count).toBe(total - 1);
    const again = await post('/api/v1/memories/delete', { memory_id: id });
    expect(again.status).toBe(404);
    expectV1Error(again.body, 'NotFound', '/api/v1/memories/delete');
    const empty = await post('/api/v1/memories/delete', {});
    expect(empty.status).toBe(422);
    expect((await post('/api/v1/memories/delete', { user_id: 'rosa' })).status).toBe(204);
    expect((await post('/api/v1/memories/get', { user_id: 'rosa' })).body.result.total_count).toBe(0);
  });

  it('agent messages go through /memories/agent', async () => {
    const r = await post('/api/v1/memories/agent', {
      message_id: 'a-1',
      create_time: at(30),
      sender: 'planner-bot',
      content: 'I compared three hut booking sites and picked the cheapest one',
      group_id: 'bot-run',
    });
    expect(r.status).toBe(200);
    const rows = await s.engram.db.query(
      'SELECT role FROM v1_messages WHERE tenant_id = $1 AND message_id = $2',
      ['tenant-a', 'a-1'],
    );
    expect(rows[0]?.role).toBe('assistant');
  });

  it('group messages go through /memories/group, which requires group_id', async () => {
    const body = { message_id: 'g-1', create_time: at(40), sender: 'rosa', content: 'Who brings the tent?' };
    const none = await post('/api/v1/memories/group', body);
    expect(none.status).toBe(422);
    expectV1Error(none.body, 'InvalidParameter', '/api/v1/memories/group');
    expect(none.body.message).toContain('group_id');
    const r = await post('/api/v1/memories/group', { ...body, group_id: 'camp', group_name: 'Camping' });
    expect(r.status).toBe(200);
    expect(r.body.result.status_info).toBe('accumulated');
    const g = await s.call('GET', '/api/v1/groups/camp', { key: v1 });
    expect(g.body.data).toMatchObject({ group_id: 'camp', name: 'Camping' });
  });
});
