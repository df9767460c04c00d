import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOPIC_CHARS } from '../../src/engine/kb/split.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { upstreamErrors } from '../helpers/upstream.js';
import { createKb, GARDEN, ingest, MANUAL, MANUAL_TITLE, waitTask } from './fixture.js';

/**
 * Documents split into topic trees; topics read one at a time, per document and per tag;
 * tag replace with compare-and-set and every rule of the spec; related-tag usage; ingest
 * progress on the task; replace (PUT) rebuilding the tree. Both drivers, upstream-valid.
 */
const KB = '/api/v2/knowledge_bases';

describe.each(DRIVERS)('knowledge-base topics and tags [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let other: string;
  let kb: string;
  let manual: string;
  let tree: any[];
  const ok = async (method: string, path: string, template: string, body?: unknown) => {
    const r = await s.call(method, path, { key, ...(body === undefined ? {} : { body }) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(upstreamErrors(method, `${KB}${template}`, 200, r.body)).toEqual([]);
    return r.body.data;
  };
  const named = (name: string) => tree.find((t) => t.name === name)!;
  const replacePath = (topicId: string, doc = manual) =>
    `${KB}/${kb}/documents/${doc}/topics/${topicId}/tag/replace`;
  const replace = (topicId: string, body: unknown) =>
    ok('POST', replacePath(topicId), '/{kb_id}/documents/{doc_id}/topics/{topic_id}/tag/replace', body);

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    other = await s.key('tenant-b');
    kb = await createKb(s, key);
    manual = await ingest(s, key, kb, MANUAL_TITLE, MANUAL);
    tree = (await ok('GET', `${KB}/${kb}/documents/${manual}/topics`, '/{kb_id}/documents/{doc_id}/topics'))
      .topics;
  });
  afterAll(() => s.close());

  it('splits a document into a topic tree from its own structure', async () => {
    const doc = await ok('GET', `${KB}/${kb}/documents/${manual}`, '/{kb_id}/documents/{doc_id}');
    expect(tree).toHaveLength(doc.topic_count + 1);
    expect(doc.summary).toBeTruthy();
    const [root, ...rest] = tree;
    expect(root).toMatchObject({
      type: 'root',
      name: MANUAL_TITLE,
      depth: 0,
      seq: 0,
      parent_id: null,
      content: null,
    });
    expect(root.summary).toBe(doc.summary);
    expect(tree.map((t) => t.seq)).toEqual(tree.map((_, i) => i));
    expect(rest.every((t) => t.parent_id !== null && t.content === null)).toBe(true);
    // the text before the first heading is a section under the root
    expect(tree[1]).toMatchObject({ type: 'section', depth: 1, parent_id: root.id });
    expect(named('Roasting')).toMatchObject({ type: 'section', depth: 1, parent_id: root.id });
    expect(named('Charge temperature')).toMatchObject({ depth: 2, parent_id: named('Roasting').id });
    expect(named('Roast profiles').parent_id).toBe(named('Roasting').id);
    expect(named('Fire in the drum').parent_id).toBe(named('Safety').id);
    // the long section is cut into elements, each sized for a context window
    const cleaning = named('Weekly drum cleaning');
    const elements = tree.filter((t) => t.parent_id === cleaning.id);
    expect(elements.length).toBeGreaterThan(1);
    expect(elements.every((t) => t.type === 'element' && t.depth === 3)).toBe(true);
    const full = (
      await ok(
        'GET',
        `${KB}/${kb}/documents/${manual}/topics?include=content`,
        '/{kb_id}/documents/{doc_id}/topics',
      )
    ).topics;
    expect(full[0].content).toBeNull();
    const bodies = full.filter((t: any) => t.parent_id === cleaning.id).map((t: any) => t.content as string);
    expect(bodies.every((b: string) => b.length <= MAX_TOPIC_CHARS)).toBe(true);
    expect(bodies.join('\n\n')).toContain('Step 1 of the drum cleaning');
    expect(bodies.join('\n\n')).toContain('Step 14 of the drum cleaning');
    expect(full.find((t: any) => t.name === 'Roast profiles').content).toContain(
      '| Espresso | 10:15 | 12:45 |',
    );
    expect(full.find((t: any) => t.name === 'Chaff collector').content).toContain(
      '- Empty the chaff collector',
    );
  });

  it('splits plain text by paragraphs, packed up to the topic size', async () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) =>
        `Paragraph ${i + 1} about the greenhouse: ${'the seedlings need warmth and light. '.repeat(8)}`,
    );
    const doc = await ingest(s, key, kb, 'Greenhouse', paragraphs.join('\n\n'));
    const topics = (
      await ok(
        'GET',
        `${KB}/${kb}/documents/${doc}/topics?include=content`,
        '/{kb_id}/documents/{doc_id}/topics',
      )
    ).topics;
    const sections = topics.slice(1);
    expect(sections.length).toBeGreaterThan(1);
    expect(
      sections.every((t: any) => t.type === 'section' && t.depth === 1 && t.parent_id === topics[0].id),
    ).toBe(true);
    expect(sections.every((t: any) => t.content.length <= MAX_TOPIC_CHARS)).toBe(true);
    // paragraphs stay whole
    for (const p of paragraphs) expect(sections.some((t: any) => t.content.includes(p.trim()))).toBe(true);
    expect(sections[0].name).toMatch(/^Paragraph 1 about the greenhouse/);
  });

  it('GET one topic: content, place in the tree, category; 404 elsewhere', async () => {
    const roasting = named('Roasting');
    const t = await ok(
      'GET',
      `${KB}/${kb}/documents/${manual}/topics/${roasting.id}`,
      '/{kb_id}/documents/{doc_id}/topics/{topic_id}',
    );
    expect(t).toMatchObject({
      id: roasting.id,
      doc_id: manual,
      kb_id: kb,
      type: 'section',
      depth: 1,
      category_id: '',
      category_name: null,
      tag_ids: [],
      version: 0,
      children_ids: [named('Charge temperature').id, named('Roast profiles').id],
    });
    expect(t.content).toContain('roast journal');
    const root = await ok(
      'GET',
      `${KB}/${kb}/documents/${manual}/topics/${tree[0].id}`,
      '/{kb_id}/documents/{doc_id}/topics/{topic_id}',
    );
    expect(root.content).toBeNull();
    for (const path of [
      `${KB}/${kb}/documents/${manual}/topics/t_000000000000000000000000`,
      `${KB}/${kb}/documents/d_000000000000/topics/${roasting.id}`,
    ])
      expect((await s.call('GET', path, { key })).status).toBe(404);
    expect(
      (await s.call('GET', `${KB}/${kb}/documents/${manual}/topics/${roasting.id}`, { key: other })).status,
    ).toBe(404);
  });

  it('tag replace: duplicates collapse first-seen, an unchanged set is a no-op, the version advances', async () => {
    const t = named('Charge temperature').id;
    const first = await replace(t, { tag_ids: ['heat', 'beans', 'heat', 'decaf'], version: 0 });
    expect(first).toEqual({
      topic_id: t,
      requested: 3,
      tag_ids: ['heat', 'beans', 'decaf'],
      version: 1,
      truncated: false,
      limit: 50,
      dropped_count: 0,
    });
    const again = await replace(t, { tag_ids: ['heat', 'beans', 'decaf'], version: 1 });
    expect(again).toMatchObject({ tag_ids: ['heat', 'beans', 'decaf'], version: 1 });
    const cleared = await replace(t, { tag_ids: [], version: 1 });
    expect(cleared).toMatchObject({ tag_ids: [], version: 2, requested: 0 });
    const topic = await ok(
      'GET',
      `${KB}/${kb}/documents/${manual}/topics/${t}`,
      '/{kb_id}/documents/{doc_id}/topics/{topic_id}',
    );
    expect(topic).toMatchObject({ tag_ids: [], version: 2 });
  });

  it('tag replace: 51-100 distinct ids store the first 50 and report the rest', async () => {
    const t = named('Roast profiles').id;
    const ids = Array.from({ length: 60 }, (_, i) => `tag-${String(i).padStart(2, '0')}`);
    const r = await replace(t, { tag_ids: [...ids, ...ids.slice(0, 30)], version: 0 });
    expect(r).toMatchObject({ requested: 60, truncated: true, limit: 50, dropped_count: 10, version: 1 });
    expect(r.tag_ids).toEqual(ids.slice(0, 50));
  });

  it('tag replace: a stale version answers 409 in the error object and changes nothing', async () => {
    const t = named('Chaff collector').id;
    await replace(t, { tag_ids: ['cleaning'], version: 0 });
    const r = await s.call('POST', replacePath(t), { key, body: { tag_ids: ['other'], version: 0 } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({
      request_id: expect.any(String),
      error: { code: 'Conflict', message: expect.stringContaining('version'), type: 'Conflict' },
    });
    expect(
      upstreamErrors('POST', `${KB}/{kb_id}/documents/{doc_id}/topics/{topic_id}/tag/replace`, 409, r.body),
    ).toEqual([]);
    const topic = (await s.call('GET', `${KB}/${kb}/documents/${manual}/topics/${t}`, { key })).body.data;
    expect(topic).toMatchObject({ tag_ids: ['cleaning'], version: 1 });
    const missing = await s.call('POST', replacePath('t_000000000000000000000000'), {
      key,
      body: { tag_ids: [], version: 0 },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NotFound');
    expect(
      (await s.call('POST', replacePath(t), { key: other, body: { tag_ids: [], version: 1 } })).status,
    ).toBe(404);
  });

  it('tag replace: bad bodies answer 422 with the field and change nothing', async () => {
    const t = named('Fire in the drum').id;
    for (const body of [
      { tag_ids: ['a'] },
      { version: 0 },
      { tag_ids: ['a'], version: -1 },
      { tag_ids: [''], version: 0 },
      { tag_ids: ['x'.repeat(129)], version: 0 },
      { tag_ids: Array.from({ length: 101 }, (_, i) => `t${i}`), version: 0 },
      { tag_ids: ['a'], version: 0, extra: 1 },
    ]) {
      const r = await s.call('POST', replacePath(t), { key, body });
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.detail.length).toBeGreaterThan(0);
    }
    const topic = (await s.call('GET', `${KB}/${kb}/documents/${manual}/topics/${t}`, { key })).body.data;
    expect(topic).toMatchObject({ tag_ids: [], version: 0 });
  });

  it("lists a knowledge base's topics carrying every tag, paged; counts related-tag usage", async () => {
    const garden = await ingest(s, key, kb, 'Compost notes', GARDEN);
    const gardenTopics = (await s.call('GET', `${KB}/${kb}/documents/${garden}/topics`, { key })).body.data
      .topics;
    const fire = named('Fire in the drum').id;
    const safety = named('Safety').id;
    await replace(fire, { tag_ids: ['urgent', 'safety-x'], version: 0 });
    await replace(safety, { tag_ids: ['safety-x'], version: 0 });
    const gt = gardenTopics[1].id;
    await ok('POST', replacePath(gt, garden), '/{kb_id}/documents/{doc_id}/topics/{topic_id}/tag/replace', {
      tag_ids: ['safety-x'],
      version: 0,
    });
    const both = await ok('GET', `${KB}/${kb}/topics?tag_ids=safety-x&tag_ids=urgent`, '/{kb_id}/topics');
    expect(both).toMatchObject({
      total: 1,
      topics: [{ id: fire, tag_ids: ['urgent', 'safety-x'], version: 1 }],
    });
    const one = await ok('GET', `${KB}/${kb}/topics?tag_ids=safety-x&page_size=2`, '/{kb_id}/topics');
    expect(one.total).toBe(3);
    expect(one.topics).toHaveLength(2);
    const rest = await ok('GET', `${KB}/${kb}/topics?tag_ids=safety-x&page_size=2&page=2`, '/{kb_id}/topics');
    expect(rest.topics).toHaveLength(1);
    expect(new Set([...one.topics, ...rest.topics].map((t: any) => t.id))).toEqual(
      new Set([fire, safety, gt]),
    );
    expect((await s.call('GET', `${KB}/${kb}/topics`, { key })).status).toBe(422);

    const usage = await ok('POST', `${KB}/${kb}/tags`, '/{kb_id}/tags', {
      tag_ids: ['urgent', 'safety-x', 'unused', 'safety-x'],
    });
    expect(usage).toEqual({
      items: [
        { id: 'safety-x', document_count: 2 },
        { id: 'urgent', document_count: 1 },
      ],
      total: 2,
    });
    expect((await s.call('POST', `${KB}/${kb}/tags`, { key, body: { tag_ids: [] } })).status).toBe(422);
    // a document's tags are the union of its topics' tags
    const doc = await ok('GET', `${KB}/${kb}/documents/${manual}`, '/{kb_id}/documents/{doc_id}');
    expect(doc.tags.map((t: any) => t.id)).toEqual(expect.arrayContaining(['urgent', 'safety-x']));
  });

  it('ingest is a task with progress (topics done / total); replace rebuilds the tree', async () => {
    const r = await s.call('POST', `${KB}/${kb}/documents`, {
      key,
      body: {
        title: 'Cupping',
        content: { type: 'text', text: '# Cupping\n\nSlurp loudly from the spoon.' },
      },
    });
    expect(r.status).toBe(202);
    expect(upstreamErrors('POST', `${KB}/{kb_id}/documents`, 202, r.body)).toEqual([]);
    expect(r.body.data).toMatchObject({ status: 'queued', task_id: expect.any(String) });
    const task = await waitTask(s, key, r.body.data.task_id);
    expect(task).toMatchObject({
      status: 'success',
      object: 'document',
      object_id: r.body.data.id,
      progress: { done: 2, total: 2 },
    });
    const put = await s.call('PUT', `${KB}/${kb}/documents/${r.body.data.id}`, {
      key,
      body: {
        title: 'Cupping protocol',
        content: { type: 'text', text: '# Grind\n\nGrind coarse.\n\n# Pour\n\nPour at 93 degrees.' },
      },
    });
    expect(put.status).toBe(202);
    expect(upstreamErrors('PUT', `${KB}/{kb_id}/documents/{doc_id}`, 202, put.body)).toEqual([]);
    expect(put.body.data.id).toBe(r.body.data.id);
    expect((await waitTask(s, key, put.body.data.task_id)).status).toBe('success');
    const topics = (await s.call('GET', `${KB}/${kb}/documents/${r.body.data.id}/topics`, { key })).body.data
      .topics;
    expect(topics.map((t: any) => t.name)).toEqual(['Cupping protocol', 'Grind', 'Pour']);
    const found = await s.call('POST', `${KB}/${kb}/search`, {
      key,
      body: { query: 'slurp spoon', method: 'keyword' },
    });
    expect(found.body.data.hits).toEqual([]);
  });
});
