import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, seedMessage, T0 } from './seed.js';

describe.each(DRIVERS)('memory search: unprocessed_messages [%s]', (driver) => {
  let f: Fixture;
  const ids: Record<string, string> = {};
  const run = (input: Record<string, unknown>, tenantId = 'tenant-a') =>
    f.search.search({ tenantId }, SearchInput.parse(input));

  beforeAll(async () => {
    f = await openFixture(driver);
    ids.q = await seedMessage(f, {
      session: 's1',
      sender: 'ann',
      content: 'I booked a kayak tour for June',
      state: 'queued',
      ts: T0,
    });
    ids.b = await seedMessage(f, {
      session: 's1',
      sender: 'bob',
      content: 'Kayaking sounds fun, can I join?',
      ts: T0 + 1000,
    });
    ids.seg = await seedMessage(f, {
      session: 's1',
      sender: 'ann',
      content: 'Sure, bring a towel',
      state: 'segmented',
      ts: T0 + 2000,
    });
    ids.x = await seedMessage(f, {
      session: 's1',
      sender: 'ann',
      content: 'old kayak story',
      state: 'extracted',
      ts: T0 - 1000,
    });
    ids.other = await seedMessage(f, { session: 's2', sender: 'carl', content: 'my kayak is red', ts: T0 });
    ids.tool = await seedMessage(f, {
      session: 's3',
      sender: 'helper-bot',
      role: 'assistant',
      content: 'kayak rentals found',
      ts: T0,
    });
    await seedMessage(f, {
      tenant: 'tenant-b',
      session: 's1',
      sender: 'ann',
      content: 'kayak in tenant b',
      ts: T0,
    });
  });
  afterAll(() => f.database.drop());

  it('returns matching unextracted messages of the sessions the owner took part in', async () => {
    const r = await run({ user_id: 'ann', query: 'kayak' });
    const got = r.unprocessed_messages.map((m) => m.id).sort();
    // bob's message is in ann's session; carl's session and extracted messages are not returned
    expect(got).toEqual([ids.q!, ids.b!].sort());
    for (const m of r.unprocessed_messages) {
      expect(m.score).toBeGreaterThan(0);
      expect(m.score).toBeLessThanOrEqual(1);
    }
    const m = r.unprocessed_messages.find((x) => x.id === ids.q)!;
    expect(m).toMatchObject({
      app_id: 'default',
      project_id: 'default',
      session_id: 's1',
      sender_id: 'ann',
      sender_name: 'ANN',
      role: 'user',
      content: 'I booked a kayak tour for June',
      timestamp: new Date(T0).toISOString(),
      tool_calls: null,
      tool_call_id: null,
    });
  });

  it('returns matching extracted turns the owner owns (like their episode) in messages, scored, not as unprocessed', async () => {
    const r = await run({ user_id: 'ann', query: 'kayak story' });
    expect(r.messages.map((m) => m.id)).toEqual([ids.x]);
    expect(r.messages[0]).toMatchObject({ session_id: 's1', sender_id: 'ann', content: 'old kayak story' });
    expect(r.messages[0]!.score).toBeGreaterThan(0);
    expect(r.unprocessed_messages.map((m) => m.id)).not.toContain(ids.x);
    // memory_type narrows to one memory kind: no turns
    expect((await run({ user_id: 'ann', query: 'kayak story', memory_type: 'episode' })).messages).toEqual(
      [],
    );
    // carl's session is not ann's; bob took part in it, but not in the extracted conversation
    expect((await run({ user_id: 'carl', query: 'kayak story' })).messages).toEqual([]);
    expect((await run({ user_id: 'bob', query: 'kayak story' })).messages).toEqual([]);
  });

  it('memory_type narrows to one memory kind: neither list of turns, pinned session or not', async () => {
    const kayak = { user_id: 'ann', query: 'kayak' };
    expect((await run(kayak)).unprocessed_messages.length).toBeGreaterThan(0);
    for (const input of [
      { ...kayak, memory_type: 'episode' },
      { ...kayak, memory_type: 'profile' },
      { ...kayak, memory_type: 'episode', filters: { session_id: 's1' } },
      { agent_id: 'helper-bot', query: 'kayak rentals', memory_type: 'agent_case' },
      { agent_id: 'helper-bot', query: 'kayak rentals', memory_type: 'agent_skill' },
    ]) {
      const r = await run(input);
      expect(r.unprocessed_messages, JSON.stringify(input)).toEqual([]);
      expect(r.messages, JSON.stringify(input)).toEqual([]);
    }
  });

  it('a question naming a person finds that person’s own turn, which does not name them', async () => {
    const bobs = await seedMessage(f, {
      session: 's4',
      sender: 'bob',
      content: 'my canoe has a green stripe',
      state: 'extracted',
      owners: ['ann', 'bob'],
    });
    await seedMessage(f, {
      session: 's4',
      sender: 'ann',
      content: 'the canoe stripe on my canoe is a red stripe',
      state: 'extracted',
      owners: ['ann', 'bob'],
    });
    for (const method of ['keyword', 'hybrid'] as const) {
      const r = await run({ user_id: 'ann', query: 'What colour is the stripe on Bob’s canoe?', method });
      expect(r.messages[0]?.id, method).toBe(bobs);
    }
  });

  it('a filter pinning one session returns all its unprocessed messages, oldest first, unscored', async () => {
    const r = await run({ user_id: 'ann', query: 'nothing matches this', filters: { session_id: 's1' } });
    expect(r.unprocessed_messages.map((m) => m.id)).toEqual([ids.q, ids.b, ids.seg]);
    expect(r.unprocessed_messages[0]!.score).toBeUndefined();
    const eq = await run({ user_id: 'ann', query: 'x', filters: { session_id: { eq: 's1' } } });
    expect(eq.unprocessed_messages).toHaveLength(3);
    // a session the owner never spoke in stays hidden even when pinned
    expect(
      (await run({ user_id: 'ann', query: 'x', filters: { session_id: 's2' } })).unprocessed_messages,
    ).toEqual([]);
  });

  it('a numeric session_id pins the session of that name like its string form', async () => {
    const first = await seedMessage(f, {
      session: '123',
      sender: 'dora',
      content: 'I bought a red bicycle',
      ts: T0,
    });
    const second = await seedMessage(f, {
      session: '123',
      sender: 'dora',
      content: 'lovely weather',
      ts: T0 + 1,
    });
    const pin = (session_id: unknown) =>
      run({ user_id: 'dora', query: 'bicycle', method: 'keyword', filters: { session_id } });
    for (const session_id of ['123', 123, { eq: 123 }]) {
      const r = await pin(session_id);
      expect(
        r.unprocessed_messages.map((m) => m.id),
        JSON.stringify(session_id),
      ).toEqual([first, second]);
      expect(r.unprocessed_messages[0]!.score).toBeUndefined();
    }
  });

  it('filters apply to messages; other tenants and owners see nothing', async () => {
    const r = await run({ user_id: 'ann', query: 'kayak', filters: { sender_id: 'bob' } });
    expect(r.unprocessed_messages.map((m) => m.id)).toEqual([ids.b]);
    const t = await run({ user_id: 'ann', query: 'kayak', filters: { timestamp: { lt: T0 + 500 } } });
    expect(t.unprocessed_messages.map((m) => m.id)).toEqual([ids.q]);
    expect((await run({ user_id: 'ann', query: 'kayak' }, 'tenant-c')).unprocessed_messages).toEqual([]);
    expect((await run({ user_id: 'zed', query: 'kayak' })).unprocessed_messages).toEqual([]);
  });

  it('an agent owner sees the unprocessed messages of its sessions', async () => {
    const r = await run({ agent_id: 'helper-bot', query: 'kayak rentals' });
    expect(r.unprocessed_messages.map((m) => m.id)).toEqual([ids.tool]);
  });
});
