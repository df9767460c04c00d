import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { DAY, MIN, multiParty, T0, user } from '../helpers/messages.js';

describe.each(DRIVERS)('POST /api/v2/memory/delete [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const post = (path: string, body: unknown) => s.call('POST', `/api/v2/memory/${path}`, { key, body });
  const count = async (type: string, owner: Record<string, string>) =>
    (await post('get', { memory_type: type, ...owner })).body.data.total_count as number;
  const talk = async (session: string, messages: unknown[]) => {
    await post('add', { session_id: session, messages });
    await post('flush', { session_id: session });
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
  });
  afterAll(() => s.close());

  it('user + session removes only what that session produced; the profile stays', async () => {
    await talk('a1', [
      user('ann', 'I love climbing and I live in Oslo', T0),
      user('ann', 'I work as a teacher', T0 + MIN),
    ]);
    await talk('a2', [
      user('ann', 'I adopted a dog named Rex', T0 + DAY),
      user('ann', 'Rex loves the park', T0 + DAY + MIN),
    ]);
    expect(await count('episode', { user_id: 'ann' })).toBe(2);
    const r = await post('delete', { user_id: 'ann', session_id: 'a1' });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ filters: ['user_id', 'session_id'], count: 1 });
    expect(await count('episode', { user_id: 'ann' })).toBe(1);
    expect(await count('profile', { user_id: 'ann' })).toBe(1);
  });

  it('user alone removes episodes and profile; a shared episode stays for the other human', async () => {
    await talk('mp', multiParty(T0 + 3 * DAY));
    expect(await count('episode', { user_id: 'alice' })).toBe(1);
    expect(await count('episode', { user_id: 'bob' })).toBe(1);
    const r = await post('delete', { user_id: 'alice' });
    expect(r.body.data.filters).toEqual(['user_id']);
    expect(r.body.data.count).toBe(2); // her view of the shared episode + her profile
    expect(await count('episode', { user_id: 'alice' })).toBe(0);
    expect(await count('profile', { user_id: 'alice' })).toBe(0);
    expect(await count('episode', { user_id: 'bob' })).toBe(1);
    expect(await count('profile', { user_id: 'bob' })).toBe(1);
  });

  it('agent_id removes the agent cases; session_id removes what the session produced', async () => {
    expect(await count('agent_case', { agent_id: 'helper-bot' })).toBe(1);
    const r = await post('delete', { agent_id: 'helper-bot' });
    expect(r.body.data).toMatchObject({ filters: ['agent_id'], count: 1 });
    expect(await count('agent_case', { agent_id: 'helper-bot' })).toBe(0);
    const bySession = await post('delete', { session_id: 'mp' });
    expect(bySession.body.data).toEqual({ filters: ['session_id'], count: 1 });
    expect(await count('episode', { user_id: 'bob' })).toBe(0);
    const again = await post('delete', { session_id: 'mp' });
    expect(again.body.data.count).toBe(0);
  });

  it.each([
    ['an empty body', {}, 'user_id'],
    ['user and agent together', { user_id: 'a', agent_id: 'b' }, 'agent_id'],
    ['an unknown field', { user_id: 'a', memory_type: 'episode' }, ''],
  ])('rejects %s with 422', async (_n, body, param) => {
    const r = await post('delete', body);
    expect(r.status).toBe(422);
    expect(r.body.param ?? '').toBe(param);
  });
});
