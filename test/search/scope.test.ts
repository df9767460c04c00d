import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, seedCase, seedEpisode, seedSkill, T0 } from './seed.js';

describe.each(DRIVERS)('memory search: filters, tenancy and owners [%s]', (driver) => {
  let f: Fixture;
  let small: string;
  let bobs: string;
  let late: string;
  const run = (input: Record<string, unknown>, tenantId = 'tenant-a') =>
    f.search.search({ tenantId }, SearchInput.parse(input));

  beforeAll(async () => {
    f = await openFixture(driver);
    // Many strong matches in one session, a single one in another: a filter applied after a
    // truncated scan would return nothing for the small session.
    for (let i = 0; i < 40; i++)
      await seedEpisode(f, {
        owners: ['ann'],
        session: 'big',
        ts: T0 + i * HOUR,
        subject: `sunrise photograph ${i}`,
        facts: [`Ann photographed a sunrise over the lake, version ${i}.`],
      });
    small = (
      await seedEpisode(f, {
        owners: ['ann'],
        session: 'small',
        ts: T0 - 48 * HOUR,
        subject: 'a quiet walk',
        facts: ['Ann mentioned a sunrise once.'],
      })
    ).id;
    bobs = (
      await seedEpisode(f, {
        owners: ['ann', 'bob'],
        senders: ['ann', 'bob', 'helper-bot'],
        session: 'shared',
        ts: T0 + 100 * HOUR,
        subject: 'sunrise hike with Bob',
        facts: ['Bob and Ann hiked to see the sunrise.'],
      })
    ).id;
    late = (
      await seedEpisode(f, {
        owners: ['ann'],
        session: 'late',
        ts: T0 + 1000 * HOUR,
        subject: 'sunrise photos',
        facts: ['Ann printed her sunrise photos.'],
      })
    ).id;
    await seedEpisode(f, {
      owners: ['ann'],
      session: 'gone',
      subject: 'sunrise deleted',
      facts: ['Ann sunrise gone.'],
      deleted: true,
    });
    await seedEpisode(f, {
      tenant: 'tenant-b',
      owners: ['ann'],
      subject: 'sunrise other tenant',
      facts: ['Ann sunrise b.'],
    });
    await seedEpisode(f, {
      project: 'p2',
      owners: ['ann'],
      subject: 'sunrise other project',
      facts: ['Ann sunrise p2.'],
    });
    await seedCase(f, {
      agent: 'helper-bot',
      intent: 'book a restaurant',
      approach: 'search restaurants near Alfama',
      session: 'shared',
    });
    await seedCase(f, {
      agent: 'helper-bot',
      intent: 'find a hotel',
      approach: 'search hotels in Porto',
      session: 'other',
    });
    await seedCase(f, { agent: 'other-bot', intent: 'book a restaurant', approach: 'call the restaurant' });
    await seedSkill(f, {
      agent: 'helper-bot',
      name: 'restaurant booking',
      description: 'book restaurants',
      content: 'search, compare ratings, book',
    });
  });
  afterAll(() => f.database.drop());

  it.each(['keyword', 'vector', 'hybrid', 'agentic'])(
    'a session_id filter is applied inside the candidate query (%s)',
    async (method) => {
      const r = await run({
        user_id: 'ann',
        query: 'sunrise photograph',
        method,
        top_k: 1,
        filters: { session_id: 'small' },
      });
      expect(r.episodes.map((e) => e.id)).toEqual([small]);
    },
  );

  it('sender_id filters match any sender of the episode; in / ne operators work', async () => {
    const r = await run({ user_id: 'ann', query: 'sunrise', filters: { sender_id: 'bob' } });
    expect(r.episodes.map((e) => e.id)).toEqual([bobs]);
    const viaIn = await run({
      user_id: 'ann',
      query: 'sunrise',
      filters: { sender_id: { in: ['helper-bot', 'zed'] } },
    });
    expect(viaIn.episodes.map((e) => e.id)).toEqual([bobs]);
    const ne = await run({
      user_id: 'ann',
      query: 'sunrise',
      top_k: 100,
      filters: { sender_id: { ne: 'bob' } },
    });
    expect(ne.episodes.map((e) => e.id)).not.toContain(bobs);
  });

  it('timestamp filters take Unix ms or ISO 8601; AND / OR nest', async () => {
    const r = await run({
      user_id: 'ann',
      query: 'sunrise',
      filters: { timestamp: { gte: T0 + 500 * HOUR } },
    });
    expect(r.episodes.map((e) => e.id)).toEqual([late]);
    const iso = new Date(T0 - 24 * HOUR).toISOString();
    const before = await run({ user_id: 'ann', query: 'sunrise', filters: { timestamp: { lt: iso } } });
    expect(before.episodes.map((e) => e.id)).toEqual([small]);
    const or = await run({
      user_id: 'ann',
      query: 'sunrise',
      top_k: 100,
      filters: {
        OR: [{ session_id: 'small' }, { AND: [{ session_id: 'late' }, { timestamp: { gt: T0 } }] }],
      },
    });
    expect(or.episodes.map((e) => e.id).sort()).toEqual([small, late].sort());
  });

  it('another tenant, another project or a non-owner sees nothing; deleted memories never show', async () => {
    expect((await run({ user_id: 'ann', query: 'sunrise' }, 'tenant-c')).episodes).toEqual([]);
    const b = await run({ user_id: 'ann', query: 'sunrise', top_k: 100 }, 'tenant-b');
    expect(b.episodes.map((e) => e.subject)).toEqual(['sunrise other tenant']);
    const p2 = await run({ user_id: 'ann', query: 'sunrise', project_id: 'p2', top_k: 100 });
    expect(p2.episodes.map((e) => e.subject)).toEqual(['sunrise other project']);
    const all = await run({ user_id: 'ann', query: 'sunrise', top_k: 100 });
    expect(all.episodes.map((e) => e.subject)).not.toContain('sunrise deleted');
    // The deleted episode's fact is deleted with it: it stays out of every route, and out
    // of the facts of the answer.
    for (const method of ['keyword', 'vector', 'hybrid']) {
      const got = await run({ user_id: 'ann', query: 'Ann sunrise gone', method, top_k: 100 });
      expect(got.episodes.map((e) => e.subject)).not.toContain('sunrise deleted');
      expect(got.episodes.flatMap((e) => e.atomic_facts.map((x) => x.content))).not.toContain(
        'Ann sunrise gone.',
      );
    }
    expect(all.episodes.map((e) => e.subject)).not.toContain('sunrise other tenant');
    expect(all.episodes).toHaveLength(43);
    const bob = await run({ user_id: 'bob', query: 'sunrise', top_k: 100 });
    expect(bob.episodes.map((e) => e.id)).toEqual([bobs]);
    expect((await run({ user_id: 'helper-bot', query: 'sunrise' })).episodes).toEqual([]);
  });

  it('an agent owner gets its cases and skills, never episodes; memory_type narrows', async () => {
    const r = await run({ agent_id: 'helper-bot', query: 'book a restaurant', include_profile: true });
    expect(r.episodes).toEqual([]);
    expect(r.profiles).toEqual([]);
    expect(r.agent_cases[0]).toMatchObject({ agent_id: 'helper-bot', task_intent: 'book a restaurant' });
    expect(r.agent_cases.every((c) => c.agent_id === 'helper-bot')).toBe(true);
    expect(r.agent_cases[0]!.source_message_ids).toHaveLength(1);
    expect(r.agent_skills.map((k) => k.name)).toEqual(['restaurant booking']);
    expect(r.agent_skills[0]!.score).toBeGreaterThan(0);
    const cases = await run({ agent_id: 'helper-bot', query: 'restaurant', memory_type: 'agent_case' });
    expect(cases.agent_skills).toEqual([]);
    expect(cases.agent_cases.length).toBeGreaterThan(0);
    const skills = await run({ agent_id: 'helper-bot', query: 'restaurant', memory_type: 'agent_skill' });
    expect(skills.agent_cases).toEqual([]);
    const filtered = await run({ agent_id: 'helper-bot', query: 'search', filters: { session_id: 'other' } });
    expect(filtered.agent_cases.map((c) => c.task_intent)).toEqual(['find a hotel']);
    expect((await run({ agent_id: 'helper-bot', query: 'restaurant' }, 'tenant-b')).agent_cases).toEqual([]);
  });
});
