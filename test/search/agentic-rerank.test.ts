import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import { HttpReranker, parseRerank } from '../../src/engine/search/rerank.js';
import { SearchService } from '../../src/engine/search/service.js';
import { OpenAiLlm } from '../../src/providers/llm/index.js';
import { DRIVERS } from '../helpers/drivers.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';
import { type Fixture, openFixture, seedCase, seedEpisode } from './seed.js';

describe.each(DRIVERS)('memory search: agentic and rerank [%s]', (driver) => {
  let f: Fixture;
  let fake: FakeOpenAI;
  let kayak: string;
  let bakery: string;
  const parse = (input: Record<string, unknown>) => SearchInput.parse(input);
  const service = (extra: Partial<ConstructorParameters<typeof SearchService>[0]>) =>
    new SearchService({ db: f.db, embedder: f.embedder, log: silentLogger, vectorIndex: f.index, ...extra });
  const llm = () => new OpenAiLlm({ baseURL: fake.baseURL, model: 'fake', maxRetries: 0, timeoutMs: 5000 });

  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    f = await openFixture(driver);
    kayak = (
      await seedEpisode(f, {
        owners: ['ann'],
        subject: 'summer plans',
        facts: ['Ann booked a kayak tour in Lisbon for June.', 'Ann will travel with her sister Carla.'],
      })
    ).id;
    bakery = (
      await seedEpisode(f, {
        owners: ['ann'],
        subject: 'Carla news',
        facts: ['Carla opened a bakery in Porto.', 'The bakery sells pastel de nata.'],
      })
    ).id;
    await seedEpisode(f, { owners: ['ann'], subject: 'work', facts: ['Ann works as a nurse.'] });
  });
  afterAll(async () => {
    await fake.stop();
    await f.database.drop();
  });

  it('without an LLM, agentic is hybrid plus offline query expansion, reported as degraded', async () => {
    const r = await f.search.search(
      { tenantId: 'tenant-a' },
      parse({ user_id: 'ann', query: 'kayak tour', method: 'agentic' }),
    );
    expect(r.metadata).toMatchObject({
      method: 'agentic',
      degraded: true,
      degraded_reason: 'no LLM configured',
      rounds: 2,
    });
    expect(r.metadata.queries[0]).toBe('kayak tour');
    expect(r.metadata.queries).toHaveLength(2);
    // the expansion adds words of the first round's best hits
    expect(r.metadata.queries[1]).toMatch(/^kayak tour \S+/);
    expect(r.episodes[0]!.id).toBe(kayak);
  });

  it.each(['🐱', '???'])(
    'without an LLM, a question that matches nothing (%j) is not expanded',
    async (query) => {
      const hybrid = await f.search.search({ tenantId: 'tenant-a' }, parse({ user_id: 'ann', query }));
      const r = await f.search.search(
        { tenantId: 'tenant-a' },
        parse({ user_id: 'ann', query, method: 'agentic' }),
      );
      // The nearest memories come back at 0: nothing to take words from.
      expect(hybrid.episodes.length).toBeGreaterThan(0);
      expect(Math.max(...hybrid.episodes.map((e) => e.score))).toBe(0);
      expect(r.metadata).toMatchObject({ degraded: true, rounds: 1, queries: [query] });
      expect(r.episodes.map((e) => [e.id, e.score])).toEqual(hybrid.episodes.map((e) => [e.id, e.score]));
    },
  );

  it('with an LLM, rounds continue until it judges the memories sufficient', async () => {
    const before = fake.requestsTo('chat').length;
    fake.script(
      'chat',
      { content: JSON.stringify({ sufficient: false, queries: ['bakery Carla opened'] }) },
      { content: JSON.stringify({ sufficient: true, queries: [] }) },
    );
    const r = await service({ llm: llm() }).search(
      { tenantId: 'tenant-a' },
      parse({
        user_id: 'ann',
        query: 'What does the sister of the kayak traveller run?',
        method: 'agentic',
        top_k: 5,
      }),
    );
    expect(fake.requestsTo('chat').length - before).toBe(2);
    expect(r.metadata).toMatchObject({ method: 'agentic', degraded: false, rounds: 2 });
    expect(r.metadata.queries).toEqual([
      'What does the sister of the kayak traveller run?',
      'bakery Carla opened',
    ]);
    expect(r.episodes.map((e) => e.id)).toEqual(expect.arrayContaining([kayak, bakery]));
    const prompt = fake
      .requestsTo('chat')
      .at(-1)!
      .body.messages.map((m: { content: string }) => m.content)
      .join('\n');
    expect(prompt).toContain('bakery');
  });

  it('an LLM failure degrades agentic search instead of failing it', async () => {
    fake.script('chat', { status: 500 });
    const r = await service({ llm: llm() }).search(
      { tenantId: 'tenant-a' },
      parse({ user_id: 'ann', query: 'kayak', method: 'agentic' }),
    );
    expect(r.metadata).toMatchObject({ degraded: true, degraded_reason: 'LLM failed' });
    expect(r.episodes[0]!.id).toBe(kayak);
  });

  it('rerank reorders hits by the reranker score when asked (Cohere/Jina shape)', async () => {
    fake.handle('rerank', (body) => ({
      json: {
        results: (body.documents as string[]).map((d, index) => ({
          index,
          relevance_score: d.includes('bakery') ? 0.97 : 0.05,
        })),
      },
    }));
    const s = service({ reranker: new HttpReranker({ url: fake.url, model: 'rr', apiKey: 'k' }) });
    const input = { user_id: 'ann', query: 'kayak tour', top_k: 3 };
    const plain = await s.search({ tenantId: 'tenant-a' }, parse(input));
    expect(plain.episodes[0]!.id).toBe(kayak);
    expect(plain.metadata.reranked).toBeUndefined();
    const r = await s.search({ tenantId: 'tenant-a' }, parse({ ...input, enable_llm_rerank: true }));
    expect(r.metadata.reranked).toBe(true);
    expect(r.episodes[0]!.id).toBe(bakery);
    expect(r.episodes[0]!.score).toBe(0.97);
    const req = fake.requestsTo('rerank').at(-1)!;
    expect(req.path).toBe('/rerank');
    expect(req.headers.authorization).toBe('Bearer k');
    expect(req.body).toMatchObject({ model: 'rr', query: 'kayak tour', top_n: req.body.documents.length });
  });

  it('after rerank, min_score is a floor on the reranker score alone', async () => {
    const aCase = await seedCase(f, {
      agent: 'bot',
      intent: 'open a bakery',
      approach: 'find a kayak shop to rent',
    });
    await seedCase(f, { agent: 'bot', intent: 'kayak tour booking', approach: 'kayak tour sites' });
    fake.handle('rerank', (body) => ({
      json: {
        results: (body.documents as string[]).map((d, index) => ({
          index,
          relevance_score: d.includes('bakery') ? 0.97 : 0.05,
        })),
      },
    }));
    const s = service({ reranker: new HttpReranker({ url: fake.url, model: 'rr' }) });
    const ask = (extra: Record<string, unknown>) =>
      s.search({ tenantId: 'tenant-a' }, parse({ query: 'kayak tour', min_score: 0.3, ...extra }));
    // By the fused score the bakery is under the floor and the kayak tour above it ...
    const fused = await ask({ user_id: 'ann', min_score: null });
    expect(fused.episodes.find((e) => e.id === bakery)!.score).toBeLessThan(0.3);
    expect(fused.episodes.find((e) => e.id === kayak)!.score).toBeGreaterThan(0.3);
    const fusedCases = await ask({ agent_id: 'bot', min_score: null });
    expect(fusedCases.agent_cases.find((c) => c.id === aCase)!.score).toBeLessThan(0.3);
    // ... by the reranker's the other way round: the floor applies to the final score.
    const r = await ask({ user_id: 'ann', enable_llm_rerank: true });
    expect(r.metadata.reranked).toBe(true);
    expect(r.episodes.map((e) => [e.id, e.score])).toEqual([[bakery, 0.97]]);
    const cases = await ask({ agent_id: 'bot', enable_llm_rerank: true });
    expect(cases.agent_cases.map((c) => [c.id, c.score])).toEqual([[aCase, 0.97]]);
  });

  it('a failing reranker keeps the fused order and reports reranked: false', async () => {
    fake.script('rerank', { status: 503 });
    const s = service({ reranker: new HttpReranker({ url: `${fake.url}/v1` }) });
    const r = await s.search(
      { tenantId: 'tenant-a' },
      parse({ user_id: 'ann', query: 'kayak tour', enable_llm_rerank: true }),
    );
    expect(r.metadata.reranked).toBe(false);
    expect(r.episodes[0]!.id).toBe(kayak);
    expect(fake.requestsTo('rerank').at(-1)!.path).toBe('/v1/rerank');
  });

  it('without a reranker, enable_llm_rerank changes nothing', async () => {
    const r = await f.search.search(
      { tenantId: 'tenant-a' },
      parse({ user_id: 'ann', query: 'kayak tour', enable_llm_rerank: true }),
    );
    expect(r.metadata.reranked).toBe(false);
    expect(r.episodes[0]!.id).toBe(kayak);
  });
});

describe('rerank response shapes', () => {
  it('accepts results[{index, relevance_score}], TEI bare [{index, score}] and fills gaps with -100', () => {
    expect(
      parseRerank(
        {
          results: [
            { index: 1, relevance_score: 0.8 },
            { index: 0, relevance_score: 0.1 },
          ],
        },
        2,
      ),
    ).toEqual([0.1, 0.8]);
    expect(
      parseRerank(
        [
          { index: 0, score: 0.3 },
          { index: 2, score: 0.9 },
        ],
        3,
      ),
    ).toEqual([0.3, -100, 0.9]);
    expect(() => parseRerank({ nope: true }, 1)).toThrow(/no results/);
  });

  it('talks to a TEI-style server answering a bare array', async () => {
    const fake = await new FakeOpenAI().start();
    try {
      fake.script('rerank', {
        json: [
          { index: 1, score: 2.5 },
          { index: 0, score: -1 },
        ],
      });
      const scores = await new HttpReranker({ url: `${fake.url}/rerank` }).rerank('q', ['a', 'b']);
      expect(scores).toEqual([-1, 2.5]);
      expect(fake.requestsTo('rerank')[0]!.body).toMatchObject({
        query: 'q',
        documents: ['a', 'b'],
        texts: ['a', 'b'],
      });
    } finally {
      await fake.stop();
    }
  });
});
