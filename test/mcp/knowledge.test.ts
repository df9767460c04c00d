import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MANUAL, MANUAL_TITLE } from '../kb/fixture.js';
import { call, errorOf, httpClient, ok, text, waitTask } from './helpers.js';

/**
 * Knowledge bases over MCP (real client, Streamable HTTP): add_document as a task with
 * progress, search_knowledge, get_topic, replace_topic_tags with compare-and-set, recall
 * with kb_id, topic resources (templates, list, read, subscribe), tenancy.
 */
describe.each(DRIVERS)('MCP knowledge tools and topic resources [%s]', (driver) => {
  let s: TestServer;
  let a: Client;
  let b: Client;
  let kb: string;
  let doc: string;
  let fire: any;

  const readJson = async (c: Client, uri: string) =>
    JSON.parse(((await c.readResource({ uri })).contents[0] as { text: string }).text);

  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_MCP_TOOLS: 'all' });
    const keyA = await s.key('tenant-a');
    a = await httpClient(s.url, keyA);
    b = await httpClient(s.url, await s.key('tenant-b'));
    kb = (await s.call('POST', '/api/v2/knowledge_bases', { key: keyA, body: { name: 'Roastery' } })).body
      .data.id;
    const added = await call(a, 'add_document', {
      kb_id: kb,
      title: MANUAL_TITLE,
      content: { type: 'text', text: MANUAL },
    });
    expect(added.isError).toBeFalsy();
    doc = added.structuredContent.id;
    expect(text(added)).toContain(added.structuredContent.task_id);
    const task = await waitTask(a, added.structuredContent.task_id);
    expect(task).toMatchObject({ status: 'success', task_type: 'kb.ingest' });
    expect(task.progress.done).toBe(task.progress.total);
    const done = await call(a, 'get_task', { task_id: added.structuredContent.task_id });
    expect(text(done)).toMatch(/split into \d+ topics/);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await s?.close();
  });

  it('search_knowledge finds topics and get_topic reads one in full', async () => {
    const r = await call(a, 'search_knowledge', {
      kb_id: kb,
      query: 'smoke pours from the drum',
      method: 'keyword',
    });
    expect(r.isError).toBeFalsy();
    fire = r.structuredContent.hits[0];
    expect(fire).toMatchObject({ name: 'Fire in the drum', doc_id: doc, document: { title: MANUAL_TITLE } });
    expect(text(r)).toContain(`engram://kb/${kb}/documents/${doc}/topics/${fire.id}`);
    const topic = await ok(a, 'get_topic', { kb_id: kb, doc_id: doc, topic_id: fire.id });
    expect(topic).toMatchObject({ id: fire.id, version: 0, tag_ids: [] });
    expect(topic.content).toContain('exhaust damper');
    const bad = await call(a, 'search_knowledge', { kb_id: kb, query: 'drum', top_k: 0 });
    expect(bad.isError).toBe(true);
    expect(errorOf(bad)).toMatchObject({ code: 'InvalidParameter', status_code: 422 });
  });

  it('replace_topic_tags is compare-and-set on version', async () => {
    const args = { kb_id: kb, doc_id: doc, topic_id: fire.id };
    const first = await ok(a, 'replace_topic_tags', {
      ...args,
      tag_ids: ['safety', 'safety', 'fire'],
      version: 0,
    });
    expect(first).toMatchObject({ tag_ids: ['safety', 'fire'], version: 1, requested: 2 });
    const stale = await call(a, 'replace_topic_tags', { ...args, tag_ids: ['other'], version: 0 });
    expect(stale.isError).toBe(true);
    expect(errorOf(stale)).toMatchObject({ code: 'Conflict', status_code: 409 });
    expect((await ok(a, 'get_topic', args)).tag_ids).toEqual(['safety', 'fire']);
  });

  it('recall searches a knowledge base too when given kb_id', async () => {
    const r = await call(a, 'recall', {
      user_id: 'nobody',
      query: 'close the exhaust damper during a drum fire',
      kb_id: kb,
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.topics[0]).toMatchObject({ name: 'Fire in the drum' });
    expect(text(r)).toContain(`engram://kb/${kb}/documents/`);
    expect(text(r)).toContain('Fire in the drum');
    const plain = await ok(a, 'recall', { user_id: 'nobody', query: 'drum fire' });
    expect(plain.topics).toBeUndefined();
  });

  it('serves topics as resources: templates, list, read', async () => {
    const { resourceTemplates } = await a.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        'engram://kb/{kb_id}/documents/{doc_id}/topics',
        'engram://kb/{kb_id}/documents/{doc_id}/topics/{topic_id}',
      ]),
    );
    const tree = `engram://kb/${kb}/documents/${doc}/topics`;
    expect((await a.listResources()).resources.map((r) => r.uri)).toContain(tree);
    expect((await b.listResources()).resources.map((r) => r.uri)).not.toContain(tree);
    const body = await readJson(a, tree);
    expect(body.items[0]).toMatchObject({ type: 'root', name: MANUAL_TITLE });
    const item = body.items.find((t: any) => t.id === fire.id);
    expect(item.uri).toBe(`${tree}/${fire.id}`);
    const one = await readJson(a, item.uri);
    expect(one.topic).toMatchObject({ id: fire.id, name: 'Fire in the drum' });
    await expect(b.readResource({ uri: item.uri })).rejects.toThrow(/not found/);
    await expect(a.readResource({ uri: `${tree}/t_000000000000000000000000` })).rejects.toThrow(/not found/);
  });

  it('notifies subscribers of a topic when its tags change and of a tree when it is rebuilt', async () => {
    const tree = `engram://kb/${kb}/documents/${doc}/topics`;
    const topicUri = `${tree}/${fire.id}`;
    const updated: string[] = [];
    a.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await a.subscribeResource({ uri: topicUri });
    await a.subscribeResource({ uri: tree });
    const waitFor = async (uri: string) => {
      const until = Date.now() + 20_000;
      while (!updated.includes(uri) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(updated).toContain(uri);
    };
    const current = await ok(a, 'get_topic', { kb_id: kb, doc_id: doc, topic_id: fire.id });
    await ok(a, 'replace_topic_tags', {
      kb_id: kb,
      doc_id: doc,
      topic_id: fire.id,
      tag_ids: ['hazard'],
      version: current.version,
    });
    await waitFor(topicUri);
    await waitFor(tree);
    updated.length = 0;
    const keyA = await s.key('tenant-a');
    const put = await s.call('PUT', `/api/v2/knowledge_bases/${kb}/documents/${doc}`, {
      key: keyA,
      body: { title: MANUAL_TITLE, content: { type: 'text', text: '# Only\n\nOne short section now.' } },
    });
    expect(put.status).toBe(202);
    await waitFor(tree);
    await waitFor(topicUri);
    await a.unsubscribeResource({ uri: topicUri });
    await a.unsubscribeResource({ uri: tree });
  });
});
