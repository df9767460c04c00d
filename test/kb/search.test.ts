import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';
import { upstreamErrors } from '../helpers/upstream.js';
import { createKb, GARDEN, ingest, MANUAL, MANUAL_TITLE } from './fixture.js';

/**
 * POST /api/v2/knowledge_bases/{kb_id}/search: every field and the spec's Rules 1-3 (score
 * normalised within the response, filter-only hits at 0.0, failed rerank batch at -100.0),
 * on both drivers; every success body validates against the upstream OpenAPI.
 */
const TEMPLATE = '/api/v2/knowledge_bases/{kb_id}/search';

describe.each(DRIVERS)('knowledge-base search [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let kb: string;
  let manual: string;
  let garden: string;
  let category: string;
  let topics: any[];
  const topicNamed = (name: string) => topics.find((t) => t.name === name)!;
  const search = async (body: Record<string, unknown>, status = 200) => {
    const r = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, { key, body });
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    if (status === 200) expect(upstreamErrors('POST', TEMPLATE, 200, r.body)).toEqual([]);
    return r.body;
  };
  const tag = async (topicId: string, tagIds: string[]) => {
    const t = topics.find((x) => x.id === topicId)!;
    const path = `/api/v2/knowledge_bases/${kb}/documents/${t.doc_id}/topics/${topicId}/tag/replace`;
    const cur = (
      await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${t.doc_id}/topics/${topicId}`, { key })
    ).body.data;
    const r = await s.call('POST', path, { key, body: { tag_ids: tagIds, version: cur.version } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    kb = await createKb(s, key);
    category = (
      await s.call('POST', `/api/v2/knowledge_bases/${kb}/categories`, { key, body: { name: 'Manuals' } })
    ).body.data.id;
    manual = await ingest(s, key, kb, MANUAL_TITLE, MANUAL, { category_id: category });
    garden = await ingest(s, key, kb, 'Compost notes', GARDEN);
    topics = [];
    for (const doc of [manual, garden])
      topics.push(
        ...(await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${doc}/topics`, { key })).body.data
          .topics,
      );
    await tag(topicNamed('Fire in the drum').id, ['safety', 'fire']);
    await tag(topicNamed('Chaff collector').id, ['safety', 'cleaning']);
    await tag(topicNamed('Charge temperature').id, ['roasting']);
  });
  afterAll(() => s.close());

  it.each(['keyword', 'vector', 'hybrid'] as const)(
    'finds the right topic by %s, with its document',
    async (method) => {
      const body = await search({
        query: 'drum fire smoke: cut the gas and close the exhaust damper',
        method,
      });
      const hits = body.data.hits;
      expect(hits[0]).toMatchObject({
        object: 'topic',
        id: topicNamed('Fire in the drum').id,
        doc_id: manual,
        kb_id: kb,
        name: 'Fire in the drum',
        depth: 2,
        category_id: category,
        category_name: 'Manuals',
        retrieval_method: method,
        tags: [
          { id: 'safety', name: 'safety' },
          { id: 'fire', name: 'fire' },
        ],
        document: { doc_id: manual, title: MANUAL_TITLE },
      });
      expect(hits[0].document.summary).toBeTruthy();
      expect(hits[0].summary).toBeTruthy();
      expect(hits[0]).not.toHaveProperty('content');
      // the document root (no body of its own) is never a hit
      expect(hits.every((h: any) => h.depth > 0)).toBe(true);
      expect(typeof body.data.took_ms).toBe('number');
      expect(body.data.total).toBeGreaterThanOrEqual(hits.length);
    },
  );

  it('defaults to hybrid and inlines content only when asked', async () => {
    const plain = await search({ query: 'preheat the drum before charging green beans' });
    expect(plain.data.hits[0].retrieval_method).toBe('hybrid');
    expect(plain.data.hits[0].name).toBe('Charge temperature');
    const full = await search({
      query: 'preheat the drum before charging green beans',
      include: ['content'],
    });
    expect(full.data.hits[0].content).toContain('205 degrees Celsius');
  });

  it('Rule 1: scores are normalised within the response; score_threshold cuts a relative position', async () => {
    const all = (await search({ query: 'drum', method: 'keyword', top_k: 100 })).data;
    const scores = all.hits.map((h: any) => h.score);
    expect(scores.length).toBeGreaterThan(2);
    expect(scores[0]).toBe(1);
    expect(Math.min(...scores)).toBe(0);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(all.total).toBe(scores.length);
    const cut = (await search({ query: 'drum', method: 'keyword', top_k: 100, score_threshold: 0.5 })).data;
    expect(cut.hits.map((h: any) => h.id)).toEqual(
      all.hits.filter((h: any) => h.score >= 0.5).map((h: any) => h.id),
    );
    expect(cut.total).toBe(cut.hits.length);
    const top = (await search({ query: 'drum', method: 'keyword', score_threshold: 1 })).data;
    expect(top.hits.map((h: any) => h.id)).toEqual([all.hits[0].id]);
  });

  it('top_k limits the hits; a query search is bounded by the rerank pool of 50', async () => {
    const two = (await search({ query: 'drum', top_k: 2 })).data;
    expect(two.hits).toHaveLength(2);
    expect(two.total).toBeGreaterThan(2);
    const many = (await search({ query: 'the', method: 'vector', top_k: 100 })).data;
    expect(many.hits.length).toBeLessThanOrEqual(50);
    expect(many.total).toBeLessThanOrEqual(50);
  });

  it('filters.category_id and filters.tag_ids narrow the search (a topic must carry every tag)', async () => {
    const inCat = (await search({ query: 'compost heap', filters: { category_id: category } })).data;
    expect(inCat.hits.length).toBeGreaterThan(0);
    expect(inCat.hits.every((h: any) => h.doc_id === manual)).toBe(true);
    const outside = (await search({ query: 'compost heap' })).data;
    expect(outside.hits[0].doc_id).toBe(garden);
    const safety = (await search({ query: 'drum', filters: { tag_ids: ['safety'] } })).data;
    expect(safety.hits.map((h: any) => h.name).sort()).toEqual(['Chaff collector', 'Fire in the drum']);
    const both = (await search({ query: 'drum', filters: { tag_ids: ['safety', 'fire'] } })).data;
    expect(both.hits.map((h: any) => h.name)).toEqual(['Fire in the drum']);
  });

  it('boost_tag_ids reweights toward tagged topics and never filters', async () => {
    const q = { query: 'drum', method: 'keyword', top_k: 100 } as const;
    const plain = (await search(q)).data.hits;
    const boosted = (await search({ ...q, boost_tag_ids: ['roasting'] })).data.hits;
    expect(boosted.map((h: any) => h.id).sort()).toEqual(plain.map((h: any) => h.id).sort());
    const charge = topicNamed('Charge temperature').id;
    const before = plain.find((h: any) => h.id === charge);
    const after = boosted.find((h: any) => h.id === charge);
    expect(after.score).toBeCloseTo(before.score + 0.3, 6);
    expect(boosted.findIndex((h: any) => h.id === charge)).toBeLessThanOrEqual(
      plain.findIndex((h: any) => h.id === charge),
    );
  });

  it('Rule 2: without a query, filters.tag_ids pages through tagged topics, every hit at 0.0', async () => {
    const p1 = (await search({ filters: { tag_ids: ['safety'] }, top_k: 1 })).data;
    expect(p1.total).toBe(2);
    expect(p1.hits).toHaveLength(1);
    expect(p1.hits[0]).toMatchObject({ score: 0, retrieval_method: 'filter' });
    const p2 = (await search({ filters: { tag_ids: ['safety'] }, top_k: 1, page: 2 })).data;
    expect(p2.hits).toHaveLength(1);
    expect(p2.hits[0].id).not.toBe(p1.hits[0].id);
    const p3 = (await search({ filters: { tag_ids: ['safety'] }, top_k: 1, page: 3 })).data;
    expect(p3.hits).toEqual([]);
    const thresholded = (await search({ filters: { tag_ids: ['safety'] }, score_threshold: 0.01 })).data;
    expect(thresholded.hits).toEqual([]);
  });

  it('refuses bad bodies with 422 and the field path', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{}, 'query'],
      [{ query: '   ' }, 'query'],
      [{ query: 'x'.repeat(2001) }, 'query'],
      [{ query: 'drum', page: 2 }, 'page'],
      [{ query: 'drum', top_k: 0 }, 'top_k'],
      [{ query: 'drum', top_k: 101 }, 'top_k'],
      [{ query: 'drum', method: 'agentic' }, 'method'],
      [{ query: 'drum', include: ['everything'] }, 'include'],
      [{ query: 'drum', boost_tag_ids: Array.from({ length: 101 }, (_, i) => `t${i}`) }, 'boost_tag_ids'],
      [{ query: 'drum', boost_tag_ids: ['x'.repeat(129)] }, 'boost_tag_ids'],
      [{ query: 'drum', filters: { tag_ids: [''] } }, 'filters'],
      [{ query: 'drum', kb_id: kb }, 'kb_id'],
    ];
    for (const [body, field] of bad) {
      const r = await search(body, 422);
      expect(r.code, JSON.stringify(body)).toBe('InvalidParameter');
      expect(JSON.stringify(r.detail ?? r.param), JSON.stringify(body)).toContain(field);
    }
    expect(
      (await s.call('POST', '/api/v2/knowledge_bases/kb_missing/search', { key, body: { query: 'x' } }))
        .status,
    ).toBe(404);
  });
});

describe.each(DRIVERS)('knowledge-base search with a reranker [%s]', (driver) => {
  let s: TestServer;
  let fake: FakeOpenAI;
  let key: string;
  let kb: string;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    s = await startTestServer(driver, { ENGRAM_RERANK_URL: fake.url });
    key = await s.key('tenant-a');
    kb = await createKb(s, key);
    await ingest(s, key, kb, MANUAL_TITLE, MANUAL);
  });
  afterAll(async () => {
    await s.close();
    await fake.stop();
  });

  it('reranks the pool: the reranker order wins, normalised within the response', async () => {
    fake.handle('rerank', (body) => ({
      json: {
        results: (body.documents as string[]).map((d, index) => ({
          index,
          relevance_score: d.startsWith('Chaff collector\n') ? 0.9 : 0.1,
        })),
      },
    }));
    const r = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, {
      key,
      body: { query: 'drum fire' },
    });
    expect(r.status).toBe(200);
    expect(upstreamErrors('POST', TEMPLATE, 200, r.body)).toEqual([]);
    expect(r.body.data.hits[0]).toMatchObject({ name: 'Chaff collector', score: 1 });
    expect(r.body.data.hits.at(-1).score).toBe(0);
    expect(fake.requestsTo('rerank').at(-1)!.body.query).toBe('drum fire');
  });

  it('Rule 3: a failed rerank batch scores -100.0, which a positive threshold removes', async () => {
    // the batch holding the fire topic fails; the other batch answers
    fake.handle('rerank', (body) =>
      (body.documents as string[]).some((d) => d.startsWith('Fire in the drum\n'))
        ? { status: 503 }
        : {
            json: {
              results: (body.documents as string[]).map((_, index) => ({ index, relevance_score: 0.5 })),
            },
          },
    );
    const body = { query: 'drum', method: 'vector', top_k: 100 };
    const r = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, { key, body });
    expect(r.status).toBe(200);
    expect(upstreamErrors('POST', TEMPLATE, 200, r.body)).toEqual([]);
    const fire = r.body.data.hits.find((h: any) => h.name === 'Fire in the drum');
    expect(fire.score).toBe(-100);
    expect(r.body.data.hits.at(-1).score).toBe(-100);
    const cut = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, {
      key,
      body: { ...body, score_threshold: 0.01 },
    });
    expect(cut.body.data.hits.some((h: any) => h.score === -100)).toBe(false);
    expect(cut.body.data.hits.some((h: any) => h.name === 'Fire in the drum')).toBe(false);
  });
});
