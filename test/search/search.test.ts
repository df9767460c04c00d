import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { inContext } from '../../src/engine/search/episodes.js';
import { DRIVERS } from '../helpers/drivers.js';
import { hashVector } from '../helpers/hash-embedder.js';
import { type Fixture, HOUR, openFixture, seedEpisode, seedProfile, T0 } from './seed.js';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe.each(DRIVERS)('memory search: methods and scores [%s]', (driver) => {
  let f: Fixture;
  let club: Awaited<ReturnType<typeof seedEpisode>>;
  const run = (input: Record<string, unknown>, tenantId = 'tenant-a') =>
    f.search.search({ tenantId }, SearchInput.parse(input));

  beforeAll(async () => {
    f = await openFixture(driver);
    club = await seedEpisode(f, {
      owners: ['rosa', 'tomas'],
      subject: 'chess club, photography',
      summary: 'Rosa and Tomas caught up about their week.',
      episode: 'Rosa and Tomas talked about many things, photographs and the kids.',
      facts: [
        'Rosa went to a chess club on 7 May 2023.',
        'Tomas photographed a lake sunrise in 2022.',
        'Tomas is swamped with the kids and work.',
      ],
    });
    for (let i = 0; i < 6; i++)
      await seedEpisode(f, {
        owners: ['rosa', 'tomas'],
        ts: T0 + (i + 1) * 24 * HOUR,
        subject: `weekly chat ${i}`,
        summary: `Rosa and Tomas chatted about Rosa's day ${i}.`,
        facts: [`Rosa said day ${i} was busy with work.`, `Tomas took the kids swimming on day ${i}.`],
      });
    await seedProfile(f, 'rosa');
  });
  afterAll(() => f.database.drop());

  it('keyword: BM25 finds a short fact for a short question and lifts its episode', async () => {
    const r = await run({
      user_id: 'rosa',
      query: 'When did Rosa go to the chess club?',
      method: 'keyword',
    });
    expect(r.episodes[0]!.id).toBe(club.id);
    const top = r.episodes[0]!.atomic_facts[0]!;
    expect(top.content).toContain('chess club');
    expect(top.score).toBeGreaterThan(0);
    expect(top.source_message_ids).toEqual([club.sources[0]]);
    // the episode's score is its best route score: here the fact's BM25
    expect(r.episodes[0]!.score).toBeGreaterThanOrEqual(top.score);
    // facts are nested best first, each with a score
    const scores = r.episodes[0]!.atomic_facts.map((x) => x.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.metadata).toMatchObject({ method: 'keyword', degraded: false, queries: [expect.any(String)] });
  });

  it('keyword: a rare term outweighs a common one (idf from term statistics)', async () => {
    const r = await run({ user_id: 'tomas', query: 'Rosa sunrise', method: 'keyword' });
    expect(r.episodes[0]!.id).toBe(club.id);
    expect(r.episodes[0]!.atomic_facts[0]!.content).toContain('sunrise');
  });

  it('keyword: a query of stopwords only finds nothing', async () => {
    const r = await run({ user_id: 'rosa', query: 'what is it', method: 'keyword' });
    expect(r.episodes).toEqual([]);
  });

  it('vector: a fact scores its cosine similarity in the context of its episode', async () => {
    const query = 'lake sunrise photograph';
    const r = await run({ user_id: 'rosa', query, method: 'vector', top_k: 3 });
    expect(r.episodes).toHaveLength(3);
    const q = hashVector(query, 64);
    const hit = r.episodes.find((e) => e.id === club.id)!;
    const fact = hit.atomic_facts.find((x) => x.content.includes('sunrise'))!;
    const episodeCos = cosine(q, hashVector(`${hit.subject}\n${hit.summary}\n${hit.episode}`, 64));
    const factCos = cosine(q, hashVector(fact.content, 64));
    expect(fact.score).toBeCloseTo(inContext(factCos, episodeCos), 5);
    expect(hit.score).toBeCloseTo(Math.max(episodeCos, fact.score), 5);
    expect(r.episodes[0]!.id).toBe(club.id);
  });

  it('vector: radius is a cosine floor on candidates', async () => {
    const all = await run({
      user_id: 'rosa',
      query: 'lake sunrise photograph',
      method: 'vector',
      top_k: 100,
    });
    const best = all.episodes[0]!.score;
    const r = await run({
      user_id: 'rosa',
      query: 'lake sunrise photograph',
      method: 'vector',
      radius: best - 0.001,
      top_k: 100,
    });
    expect(r.episodes.length).toBeGreaterThanOrEqual(1);
    expect(r.episodes.length).toBeLessThan(all.episodes.length);
    for (const e of r.episodes) expect(e.score).toBeGreaterThanOrEqual(best - 0.001);
    const none = await run({
      user_id: 'rosa',
      query: 'lake sunrise photograph',
      method: 'vector',
      radius: 1,
    });
    expect(none.episodes).toEqual([]);
  });

  it('hybrid (default): fused scores in 0-1; min_score is an absolute floor', async () => {
    const r = await run({ user_id: 'rosa', query: 'chess club' });
    expect(r.metadata.method).toBe('hybrid');
    expect(r.episodes[0]!.id).toBe(club.id);
    for (const e of r.episodes) {
      expect(e.score).toBeGreaterThanOrEqual(0);
      expect(e.score).toBeLessThanOrEqual(1);
    }
    const floor = r.episodes[0]!.score - 1e-6;
    const cut = await run({ user_id: 'rosa', query: 'chess club', min_score: floor });
    expect(cut.episodes.map((e) => e.id)).toEqual([club.id]);
    expect((await run({ user_id: 'rosa', query: 'chess club', min_score: 1 })).episodes).toEqual([]);
  });

  it('top_k: -1 lets the engine decide (10); otherwise at most top_k', async () => {
    expect((await run({ user_id: 'rosa', query: 'Rosa Tomas', top_k: 2 })).episodes).toHaveLength(2);
    const r = await run({
      user_id: 'rosa',
      query: 'Rosa Tomas kids day work',
      top_k: -1,
      method: 'vector',
    });
    expect(r.episodes.length).toBe(7);
  });

  it('every array is always present; include_profile adds the profile with score null', async () => {
    const r = await run({ user_id: 'rosa', query: 'chess club' });
    expect(Object.keys(r).sort()).toEqual(
      [
        'agent_cases',
        'agent_skills',
        'episodes',
        'messages',
        'metadata',
        'profiles',
        'unprocessed_messages',
      ].sort(),
    );
    expect(r.profiles).toEqual([]);
    expect(r.agent_cases).toEqual([]);
    expect(r.agent_skills).toEqual([]);
    const p = await run({ user_id: 'rosa', query: 'chess club', include_profile: true });
    expect(p.profiles).toHaveLength(1);
    expect(p.profiles[0]).toMatchObject({ user_id: 'rosa', score: null });
    expect((await run({ user_id: 'tomas', query: 'x y', include_profile: true })).profiles).toEqual([]);
    const only = await run({ user_id: 'rosa', query: 'chess club', memory_type: 'profile' });
    expect(only.episodes).toEqual([]);
    expect(only.profiles).toHaveLength(1);
  });

  it('episode hits carry source_message_ids, user_id of the viewer and readable_episode on request', async () => {
    const r = await run({
      user_id: 'tomas',
      query: 'chess club',
      with_readable_episode: true,
      top_k: 1,
    });
    const e = r.episodes[0]!;
    expect(e.user_id).toBe('tomas');
    expect(e.source_message_ids).toEqual(club.sources);
    expect(e.readable_episode).toContain('chess club');
    expect(
      (await run({ user_id: 'tomas', query: 'chess club', top_k: 1 })).episodes[0]!.readable_episode,
    ).toBeNull();
  });
});
