import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { DAY, MIN, multiParty, T0, user } from '../helpers/messages.js';

describe.each(DRIVERS)('POST /api/v2/memory/add and flush [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
  });
  afterAll(() => s.close());

  const add = (body: unknown) => s.call('POST', '/api/v2/memory/add', { key, body });
  const countMessages = async () =>
    (await s.engram.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages'))[0]!.n;

  it('stores messages and answers 200 accumulated with their ids in order', async () => {
    const r = await add({
      session_id: 's-acc',
      messages: [user('u1', 'hello there', T0), user('u1', 'I like tea', T0 + MIN)],
    });
    expect(r.status).toBe(200);
    expect(r.body.request_id).toMatch(/^req_/);
    expect(r.body.data).toMatchObject({ message_count: 2, status: 'accumulated' });
    expect(r.body.data.message_ids).toHaveLength(2);
    for (const id of r.body.data.message_ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    const rows = await s.engram.db.query<{ id: string }>(
      "SELECT id FROM messages WHERE session_id = 's-acc' ORDER BY seq",
    );
    expect(rows.map((x) => x.id)).toEqual(r.body.data.message_ids);
  });

  it('answers extracted when a boundary is crossed (calendar day change)', async () => {
    const first = await add({
      session_id: 's-day',
      messages: [user('u1', 'I adopted a cat named Miso today', T0)],
    });
    expect(first.body.data.status).toBe('accumulated');
    const next = await add({ session_id: 's-day', messages: [user('u1', 'Miso slept all day', T0 + DAY)] });
    expect(next.body.data.status).toBe('extracted');
    const got = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'u1' },
    });
    expect(got.body.data.episodes.length).toBeGreaterThanOrEqual(1);
  });

  it('rejects a seconds-scale timestamp with 422 InvalidParameter naming the field, storing nothing', async () => {
    const before = await countMessages();
    const r = await add({
      session_id: 's-bad',
      messages: [user('u1', 'ok', T0), user('u1', 'seconds', Math.floor(T0 / 1000))],
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      code: 'InvalidParameter',
      param: 'messages[1].timestamp',
      type: 'UnprocessableEntity',
      status_code: 422,
    });
    expect(r.body.detail[0].loc).toEqual(['body', 'messages', 1, 'timestamp']);
    expect(await countMessages()).toBe(before);
  });

  it.each([
    ['missing session_id', { messages: [user('u1', 'x', T0)] }, 'session_id'],
    ['empty session_id', { session_id: '', messages: [user('u1', 'x', T0)] }, 'session_id'],
    ['session_id over 128', { session_id: 'x'.repeat(129), messages: [user('u1', 'x', T0)] }, 'session_id'],
    ['no messages', { session_id: 's', messages: [] }, 'messages'],
    [
      '501 messages',
      { session_id: 's', messages: Array.from({ length: 501 }, (_, i) => user('u1', 'x', T0 + i)) },
      'messages',
    ],
    ['empty sender_id', { session_id: 's', messages: [user('', 'x', T0)] }, 'messages[0].sender_id'],
    [
      'sender_id over 128',
      { session_id: 's', messages: [user('x'.repeat(129), 'x', T0)] },
      'messages[0].sender_id',
    ],
    [
      'unknown role',
      { session_id: 's', messages: [{ ...user('u1', 'x', T0), role: 'system' }] },
      'messages[0].role',
    ],
    [
      'float timestamp',
      { session_id: 's', messages: [{ ...user('u1', 'x', T0), timestamp: T0 + 0.5 }] },
      'messages[0].timestamp',
    ],
    [
      'tool message without tool_call_id',
      { session_id: 's', messages: [{ sender_id: 'a', role: 'tool', content: 'r', timestamp: T0 }] },
      'messages[0].tool_call_id',
    ],
    [
      'tool call without function name',
      {
        session_id: 's',
        messages: [
          {
            ...user('a', 'x', T0),
            role: 'assistant',
            tool_calls: [{ id: 'c', function: { arguments: '{}' } }],
          },
        ],
      },
      'messages[0].tool_calls[0].function.name',
    ],
    [
      'tool call arguments not a string',
      {
        session_id: 's',
        messages: [
          {
            ...user('a', 'x', T0),
            role: 'assistant',
            tool_calls: [{ id: 'c', function: { name: 'f', arguments: {} } }],
          },
        ],
      },
      'messages[0].tool_calls[0].function.arguments',
    ],
    ['bad app_id', { app_id: 'a b', session_id: 's', messages: [user('u1', 'x', T0)] }, 'app_id'],
  ])('rejects %s with 422', async (_name, body, param) => {
    const before = await countMessages();
    const r = await add(body);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('InvalidParameter');
    expect(r.body.param).toBe(param);
    expect(r.body.detail.length).toBeGreaterThan(0);
    expect(await countMessages()).toBe(before);
  });

  it('rejects a body that is not JSON with 422', async () => {
    const r = await s.call('POST', '/api/v2/memory/add', { key, body: '{"session_id":' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0].type).toBe('json_invalid');
  });

  it('accepts content items and a tool trajectory', async () => {
    const r = await add({
      session_id: 's-items',
      messages: [
        {
          sender_id: 'u1',
          role: 'user',
          timestamp: T0,
          content: [{ type: 'text', text: 'What is the weather in Oslo?' }],
        },
        ...multiParty(T0 + MIN).slice(3, 6),
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.data.message_count).toBe(4);
  });

  it('async_mode answers 202 queued with a task that the tasks endpoint follows to success', async () => {
    const r = await add({
      session_id: 's-async',
      async_mode: true,
      messages: [user('u2', 'I am learning Portuguese', T0)],
    });
    expect(r.status).toBe(202);
    expect(r.body.data).toMatchObject({ status: 'queued', message_count: 1 });
    const taskId = r.body.data.task_id as string;
    expect(taskId).toBeTruthy();
    let status = '';
    for (let i = 0; i < 100 && status !== 'success'; i++) {
      const t = await s.call('GET', `/api/v2/tasks/${taskId}`, { key });
      expect(t.status).toBe(200);
      status = t.body.data.status;
      if (status !== 'success') await new Promise((res) => setTimeout(res, 100));
    }
    expect(status).toBe('success');
    const flushed = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 's-async' } });
    expect(flushed.body.data.status).toBe('extracted');
  });

  it('flush extracts the tail, then has nothing left', async () => {
    await add({ session_id: 's-flush', messages: [user('u3', 'My favourite colour is green', T0)] });
    const f1 = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 's-flush' } });
    expect(f1.status).toBe(200);
    expect(f1.body.data).toEqual({ status: 'extracted' });
    const f2 = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 's-flush' } });
    expect(f2.body.data).toEqual({ status: 'no_extraction' });
    const f3 = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'never-seen' } });
    expect(f3.body.data).toEqual({ status: 'no_extraction' });
    const bad = await s.call('POST', '/api/v2/memory/flush', { key, body: {} });
    expect(bad.status).toBe(422);
    expect(bad.body.param).toBe('session_id');
  });
});
