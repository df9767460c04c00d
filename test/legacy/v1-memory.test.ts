import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';
import { componentErrors } from '../helpers/upstream.js';
import { expectV1Error } from '../helpers/v1.js';

describe.each(DRIVERS)('legacy v1 (self-hosted) /api/v1/memory [%s]', (driver) => {
  let s: TestServer;
  let v1: string;
  let v2: string;
  const post = (path: string, body: unknown, key = v1) =>
    s.call('POST', `/api/v1/memory/${path}`, { key, body });
  const scope = { app_id: 'garden-app', project_id: 'p1' };

  beforeAll(async () => {
    s = await startTestServer(driver);
    v1 = await s.key('tenant-s', 'v1');
    v2 = await s.key('tenant-s', 'v2');
  });
  afterAll(() => s.close());

  it('answers v1 keys only, with the v1 error body; bad input stores nothing', async () => {
    const body = { ...scope, session_id: 'beds', messages: [user('ines', 'hello', T0)] };
    const r = await post('add', body, v2);
    expect(r.status).toBe(403);
    expectV1Error(r.body, 'Forbidden', '/api/v1/memory/add');
    const seconds = await post('add', { ...body, messages: [user('ines', 'hello', 1_700_000_000)] });
    expect(seconds.status).toBe(422);
    expectV1Error(seconds.body, 'InvalidParameter', '/api/v1/memory/add');
    expect(seconds.body.message).toContain('messages[0].timestamp');
    const badApp = await post('add', { ...body, app_id: 'v1:self:x' });
    expect(badApp.status).toBe(422);
    const noSession = await post('add', { ...scope, messages: body.messages });
    expect(noSession.status).toBe(422);
    expect(noSession.body.message).toContain('session_id');
    const twoOwners = await post('get', { user_id: 'ines', agent_id: 'bot' });
    expect(twoOwners.status).toBe(422);
    const v2Type = await post('get', { user_id: 'ines', memory_type: 'episode' });
    expect(v2Type.status).toBe(422);
    expectV1Error(v2Type.body, 'InvalidParameter', '/api/v1/memory/get');
    const rows = await s.engram.db.query('SELECT 1 FROM messages WHERE tenant_id = $1', ['tenant-s']);
    expect(rows).toHaveLength(0);
  });

  it('add answers request_id + data (message_count, status); search shows them as raw_messages', async () => {
    const r = await post('add', {
      ...scope,
      session_id: 'beds',
      messages: [
        user('ines', 'I planted tomatoes and basil in the raised beds behind the shed', T0, 'Ines'),
        assistant(
          'gardener-bot',
          'Tomatoes and basil grow well together; water them in the morning.',
          T0 + MIN,
        ),
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.request_id).toMatch(/./);
    expect(r.body.data).toEqual({ message_count: 2, status: 'accumulated' });
    expect(componentErrors('SuccessEnvelope_AddData_', r.body)).toEqual([]);
    const found = await post('search', {
      ...scope,
      user_id: 'ines',
      query: 'tomatoes raised beds',
      retrieve_method: 'keyword',
    });
    expect(found.status).toBe(200);
    expect(found.body.data.memories).toEqual([]);
    expect(found.body.data.agent_memory).toBeNull();
    expect(found.body.data.raw_messages.length).toBeGreaterThan(0);
    expect(found.body.data.raw_messages[0]).toMatchObject({
      ...scope,
      session_id: 'beds',
      sender_id: 'ines',
    });
  });

  it('flush extracts; get and search answer v1 memories in the caller partition only', async () => {
    const f = await post('flush', { ...scope, session_id: 'beds' });
    expect(f.status).toBe(200);
    expect(f.body.data).toEqual({ status: 'extracted' });
    expect(componentErrors('SuccessEnvelope_FlushData_', f.body)).toEqual([]);
    const got = await post('get', { ...scope, user_id: 'ines' });
    expect(got.status).toBe(200);
    expect(got.body.data.total_count).toBeGreaterThan(0);
    expect(got.body.data.has_more).toBe(false);
    const mem = got.body.data.memories[0];
    expect(mem).toMatchObject({ memory_type: 'episodic_memory', session_id: 'beds', ...scope });
    expect(mem.id).toMatch(/^[0-9a-f]{24}$/);
    const bySession = await post('get', { ...scope, user_id: 'ines', session_id: 'other' });
    expect(bySession.body.data.total_count).toBe(0);
    const profile = await post('get', { ...scope, user_id: 'ines', memory_type: 'profile' });
    expect(profile.status).toBe(200);
    expect(profile.body.data.memories.every((m: any) => m.memory_type === 'profile')).toBe(true);
    const found = await post('search', {
      ...scope,
      user_id: 'ines',
      query: 'tomatoes basil',
      retrieve_method: 'keyword',
      memory_types: ['episodic_memory', 'profile'],
    });
    expect(found.body.data.memories.map((m: any) => m.id)).toContain(mem.id);
    expect(found.body.data.raw_messages).toEqual([]);
    expect(found.body.data.total_count).toBe(found.body.data.memories.length);
    // another partition, the v1 Cloud interface and v2 see none of it
    const elsewhere = await post('get', { app_id: 'garden-app', user_id: 'ines' });
    expect(elsewhere.body.data.total_count).toBe(0);
    const cloud = await s.call('POST', '/api/v1/memories/get', { key: v1, body: { user_id: 'ines' } });
    expect(cloud.body.result.total_count).toBe(0);
    const inV2 = await s.call('POST', '/api/v2/memory/get', {
      key: v2,
      body: { ...scope, memory_type: 'episode', user_id: 'ines' },
    });
    expect(inV2.status).toBe(200);
    expect(inV2.body.data.total_count).toBe(0);
  });

  it('an add that reaches an extraction boundary answers extracted', async () => {
    const far = T0 + 30 * DAY;
    const notes = [0, 1, 2].map((i) =>
      user('ines', `Note ${i}: the compost heap needs turning every ${i + 2} weeks`, far + i * MIN),
    );
    await post('add', { ...scope, session_id: 'compost', messages: notes });
    const r = await post('add', {
      ...scope,
      session_id: 'compost',
      messages: [user('ines', 'Back from holiday, the heap smells fine', far + 2 * DAY)],
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ message_count: 1, status: 'extracted' });
  });

  it('engram migrate v1-to-v2 copies self-hosted v1 messages into their own partition and session, once', async () => {
    await post('add', {
      app_id: 'orchard',
      session_id: 'trees',
      messages: [
        user('ines', 'The pear tree by the wall needs a new stake', T0 + 40 * DAY, 'Ines'),
        assistant('gardener-bot', 'A chestnut stake lasts longest.', T0 + 40 * DAY + MIN),
      ],
    });
    const v1Rows = await s.engram.db.query<{ session_id: string; content: string; ts: string }>(
      `SELECT session_id, content, ts FROM messages WHERE tenant_id = $1 AND app_id LIKE 'v1:self:%'`,
      ['tenant-s'],
    );
    const start = await s.engram.v1.migrate('tenant-s', 0);
    expect(start).toMatchObject({ total: v1Rows.length, migrated: 0 });
    let c = start;
    for (let i = 0; i < 50 && c.migrated < c.total; i++) c = await s.engram.v1.migrate('tenant-s', 2);
    expect(c.migrated).toBe(c.total);
    expect((await s.engram.v1.migrate('tenant-s', 2)).batch).toBe(0);
    const v2Rows = await s.engram.db.query<{
      app_id: string;
      project_id: string;
      session_id: string;
      content: string;
      ts: string;
    }>(
      `SELECT app_id, project_id, session_id, content, ts FROM messages WHERE tenant_id = $1 AND app_id NOT LIKE 'v1:%'`,
      ['tenant-s'],
    );
    const key = (r: { session_id: string; content: string; ts: string }) =>
      `${r.session_id}|${r.ts}|${r.content}`;
    expect(v2Rows.map(key).sort()).toEqual(v1Rows.map(key).sort());
    expect(new Set(v2Rows.map((r) => `${r.app_id}/${r.project_id}/${r.session_id}`))).toEqual(
      new Set(['garden-app/p1/beds', 'garden-app/p1/compost', 'orchard/default/trees']),
    );
    // the v1 interface still answers them; v2 reads the copies in the partition they were sent to
    const v1Read = await post('search', {
      app_id: 'orchard',
      user_id: 'ines',
      query: 'pear stake',
      retrieve_method: 'keyword',
    });
    expect(v1Read.body.data.raw_messages.length).toBeGreaterThan(0);
    const v2Read = await s.call('POST', '/api/v2/memory/search', {
      key: v2,
      body: { app_id: 'orchard', user_id: 'ines', query: 'pear stake', method: 'keyword' },
    });
    expect(v2Read.status).toBe(200);
    expect(v2Read.body.data.episodes.length + v2Read.body.data.unprocessed_messages.length).toBeGreaterThan(
      0,
    );
  });
});
