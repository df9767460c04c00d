import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, multiParty, T0, user } from '../helpers/messages.js';
import { call, errorOf, httpClient, ok, TOOL_NAMES, text } from './helpers.js';

describe.each(DRIVERS)('MCP over Streamable HTTP [%s]', (driver) => {
  let s: TestServer;
  let keyA: string;
  let keyB: string;
  let a: Client;
  let b: Client;
  let episodeId: string;

  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_MCP_TOOLS: 'all' });
    keyA = await s.key('tenant-a');
    keyB = await s.key('tenant-b');
    a = await httpClient(s.url, keyA);
    b = await httpClient(s.url, keyB);
    const r = await ok(a, 'remember', { session_id: 'lisbon', messages: multiParty() });
    expect(r).toMatchObject({ status: 'queued', message_count: 7 });
    await s.engram.queue.drain();
    await ok(a, 'flush_session', { session_id: 'lisbon' });
    const got = await ok(a, 'get_memories', { memory_type: 'episode', user_id: 'alice' });
    episodeId = got.episodes[0].id;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await s?.close();
  });

  it('lists every tool with contract schemas and honest annotations', async () => {
    const { tools } = await a.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const by = Object.fromEntries(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      expect(t.description!.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.annotations?.openWorldHint).toBe(false);
    }
    expect(by['recall']!.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(by['get_memories']!.annotations).toMatchObject({ readOnlyHint: true });
    expect(by['remember']!.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    for (const n of ['delete_memories', 'delete_episodes', 'update_episode'])
      expect(by[n]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    // the same schema REST validates with: memory_type enum, page_size bound
    const props = by['get_memories']!.inputSchema.properties as any;
    expect(props.memory_type.enum).toEqual(['episode', 'profile', 'agent_case', 'agent_skill']);
    expect(props.page_size.maximum).toBe(100);
  });

  it('answers 401 to a request without a valid key, before any tool runs', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_task_stats', arguments: {} },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${s.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(none.status).toBe(401);
    const bad = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        ...headers,
        authorization: 'Bearer egm_0123456789abcdef_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
      },
      body: JSON.stringify(body),
    });
    expect(bad.status).toBe(401);
    await expect(httpClient(s.url, 'not-a-key')).rejects.toThrow();
  });

  it('rejects a foreign Host on a loopback bind (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const u = new URL(`${s.url}/mcp`);
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: '/mcp',
          method: 'POST',
          headers: {
            host: 'evil.example',
            authorization: `Bearer ${keyA}`,
            'content-type': 'application/json',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
    expect(status).toBe(403);
  });

  it('remember then recall finds the memory', async () => {
    const r = await call(a, 'remember', { note: 'I am allergic to peanuts and cashews.', user_id: 'dora' });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ status: 'queued', message_count: 1 });
    expect(r.structuredContent.task_id).toMatch(/^task_/);
    expect(text(r)).toContain(r.structuredContent.task_id);
    await s.engram.queue.drain();
    await ok(a, 'flush_session', { session_id: 'notes-dora' });
    const found = await call(a, 'recall', { query: 'peanut allergy', user_id: 'dora', max_tokens: 300 });
    expect(found.isError).toBeFalsy();
    expect(text(found).toLowerCase()).toContain('peanut');
    expect(found.structuredContent.context).toBe(text(found));
    expect(found.structuredContent.context_tokens).toBeLessThanOrEqual(300);
    expect(Math.ceil(text(found).length / 4)).toBeLessThanOrEqual(300);
    const hits = found.structuredContent;
    expect(hits.episodes.length + hits.unprocessed_messages.length).toBeGreaterThan(0);
    // the answer stays within max_tokens (characters / 4), saying what it left out
    const args = { query: 'Lisbon vegetarian restaurant Alfama', user_id: 'alice', include_profile: true };
    const full = await ok(a, 'recall', args);
    expect(full.context).toContain('Alfama');
    const tiny = await ok(a, 'recall', { ...args, max_tokens: 100 });
    expect(Math.ceil(tiny.context.length / 4)).toBeLessThanOrEqual(100);
    expect(tiny.omitted).toBeGreaterThan(0);
    expect(tiny.context).toMatch(/omitted to fit max_tokens/);
    const prompt = await a.getPrompt({
      name: 'recall_context',
      arguments: { query: 'dinner in Lisbon', user_id: 'alice' },
    });
    expect(JSON.stringify(prompt.messages)).toContain('Alfama');
  });

  it('gives argument errors as isError results with the REST code and message', async () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ['get_memories', 'get', { memory_type: 'episode' }],
      ['get_memories', 'get', { memory_type: 'profile', agent_id: 'x' }],
      ['update_episode', 'update', { memory_type: 'episode', memory_id: 'nope', patch: { summary: 'x' } }],
      ['rate', 'feedback', { memory_type: 'episode', memory_id: '0'.repeat(24), rating: 'positive' }],
    ];
    for (const [tool, path, args] of cases) {
      const r = await call(a, tool, args);
      expect(r.isError).toBe(true);
      const rest = await s.call('POST', `/api/v2/memory/${path}`, { key: keyA, body: args });
      expect(rest.status).toBeGreaterThanOrEqual(400);
      expect(errorOf(r)).toMatchObject({
        code: rest.body.code,
        message: rest.body.message,
        status_code: rest.status,
      });
    }
    const bad = await call(a, 'remember', { session_id: 's', messages: [user('u', 'hi', 1_700_000_000)] });
    expect(bad.isError).toBe(true);
    const rest = await s.call('POST', '/api/v2/memory/add', {
      key: keyA,
      body: { session_id: 's', messages: [user('u', 'hi', 1_700_000_000)] },
    });
    expect(errorOf(bad)).toMatchObject({
      code: 'InvalidParameter',
      message: rest.body.message,
      param: 'messages[0].timestamp',
    });
    const neither = await call(a, 'remember', { session_id: 's' });
    expect(errorOf(neither)).toMatchObject({ code: 'InvalidParameter', param: 'messages' });
    const orphan = await call(a, 'remember', { note: 'no owner' });
    expect(errorOf(orphan)).toMatchObject({ code: 'InvalidParameter', param: 'user_id' });
    const unknown = await call(a, 'no_such_tool', {});
    expect(unknown.isError).toBe(true);
    expect(errorOf(unknown).code).toBe('NotFound');
  });

  it('rate stores feedback', async () => {
    const r = await ok(a, 'rate', {
      memory_type: 'episode',
      memory_id: episodeId,
      rating: 'negative',
      reason: 'wrong_time',
      note: 'it was last month',
      suggestion: 'Alice moved to Lisbon in April.',
    });
    expect(r.id).toMatch(/^[0-9a-f]{24}$/);
    const rows = await s.engram.db.query<any>('SELECT * FROM feedback WHERE tenant_id = $1 AND id = $2', [
      'tenant-a',
      r.id,
    ]);
    expect(rows[0]).toMatchObject({
      memory_id: episodeId,
      rating: 'negative',
      reason: 'wrong_time',
      note: 'it was last month',
    });
  });

  it('runs the remaining operations: tasks, update, delete', async () => {
    const stats = await ok(a, 'get_task_stats', {});
    expect(stats.total).toBeGreaterThan(0);
    const list = await ok(a, 'list_tasks', { page_size: 5 });
    expect(list.items.length).toBeGreaterThan(0);
    const upd = await ok(a, 'update_episode', {
      memory_type: 'episode',
      memory_id: episodeId,
      patch: { subject: 'Lisbon dinner plans' },
    });
    expect(upd).toMatchObject({ id: episodeId, subject: 'Lisbon dinner plans', unchanged: false });
    expect(errorOf(await call(a, 'get_task', { task_id: 'task_nope' })).code).toBe('NotFound');
  });

  it('offers resource templates, paginated listings and bounded JSON contents', async () => {
    const { resourceTemplates } = await a.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        'engram://{app_id}/{project_id}/users/{user_id}/episodes',
        'engram://{app_id}/{project_id}/users/{user_id}/profile',
        'engram://{app_id}/{project_id}/agents/{agent_id}/cases',
        'engram://{app_id}/{project_id}/agents/{agent_id}/skills',
        'engram://{app_id}/{project_id}/episodes/{id}',
      ]),
    );
    const { resources, nextCursor } = await a.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'engram://default/default/users/alice/episodes',
        'engram://default/default/users/bob/profile',
        'engram://default/default/agents/helper-bot/cases',
      ]),
    );
    expect(nextCursor).toBeUndefined();
    const read = await a.readResource({ uri: 'engram://default/default/users/alice/episodes?page_size=1' });
    const body = JSON.parse((read.contents[0] as { text: string }).text);
    expect(body).toMatchObject({ memory_type: 'episode', user_id: 'alice', page: 1, page_size: 1 });
    expect(body.items).toHaveLength(1);
    const one = await a.readResource({ uri: `engram://default/default/episodes/${episodeId}` });
    expect(JSON.parse((one.contents[0] as { text: string }).text).item.id).toBe(episodeId);
    const profile = await a.readResource({ uri: 'engram://default/default/users/alice/profile' });
    expect(JSON.parse((profile.contents[0] as { text: string }).text).profile.user_id).toBe('alice');
    await expect(
      a.readResource({ uri: `engram://default/default/episodes/${'0'.repeat(24)}` }),
    ).rejects.toThrow(/not found/);
  });

  it('pages resources/list with a cursor', async () => {
    const keyC = await s.key('tenant-c');
    for (let i = 0; i < 130; i++)
      await s.engram.db.query(
        `INSERT INTO profiles (tenant_id, id, app_id, project_id, user_id, profile_data)
         VALUES ('tenant-c', $1, 'default', 'default', $2, '{"summary":"","explicit_info":[],"implicit_traits":[]}'::jsonb)`,
        [i.toString(16).padStart(24, '0'), `user-${String(i).padStart(3, '0')}`],
      );
    const c = await httpClient(s.url, keyC);
    try {
      const first = await c.listResources();
      expect(first.resources).toHaveLength(100);
      expect(first.nextCursor).toBeTruthy();
      const second = await c.listResources({ cursor: first.nextCursor! });
      expect(second.resources).toHaveLength(30);
      expect(second.nextCursor).toBeUndefined();
      const all = [...first.resources, ...second.resources].map((r) => r.uri);
      expect(new Set(all).size).toBe(130);
      expect(all[0]).toBe('engram://default/default/users/user-000/profile');
      await expect(c.listResources({ cursor: 'garbage' })).rejects.toThrow(/cursor/);
    } finally {
      await c.close();
    }
  });

  it('notifies a subscribed client when that memory set changes', async () => {
    const uri = 'engram://default/default/users/erin/episodes';
    const updated: string[] = [];
    a.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await a.subscribeResource({ uri });
    await ok(b, 'remember', { note: 'erin in tenant b', user_id: 'erin' });
    await s.engram.queue.drain();
    await ok(b, 'flush_session', { session_id: 'notes-erin' });
    await new Promise((r) => setTimeout(r, 200));
    expect(updated).toEqual([]); // tenant B's own erin is not tenant A's
    await ok(a, 'remember', {
      session_id: 'e1',
      messages: [
        user('erin', 'I started learning the cello this spring.', T0),
        user('erin', 'My teacher is in Porto.', T0 + MIN),
      ],
    });
    await s.engram.queue.drain();
    await ok(a, 'flush_session', { session_id: 'e1' });
    const until = Date.now() + 10_000;
    while (!updated.includes(uri) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(updated).toContain(uri);
    await a.unsubscribeResource({ uri });
  });

  it("tenant B sees none of tenant A's memories through tools or resources", async () => {
    for (const [memory_type, owner] of [
      ['episode', { user_id: 'alice' }],
      ['profile', { user_id: 'alice' }],
      ['agent_case', { agent_id: 'helper-bot' }],
    ] as const)
      expect((await ok(b, 'get_memories', { memory_type, ...owner })).total_count).toBe(0);
    expect(
      errorOf(await call(b, 'rate', { memory_type: 'episode', memory_id: episodeId, rating: 'positive' }))
        .code,
    ).toBe('NotFound');
    expect(
      errorOf(
        await call(b, 'update_episode', {
          memory_type: 'episode',
          memory_id: episodeId,
          patch: { summary: 'x' },
        }),
      ).code,
    ).toBe('NotFound');
    const { resources } = await b.listResources();
    expect(resources.map((r) => r.uri).filter((u) => /alice|bob|helper-bot|dora/.test(u))).toEqual([]);
    await expect(b.readResource({ uri: `engram://default/default/episodes/${episodeId}` })).rejects.toThrow();
    const own = JSON.parse(
      (
        (await b.readResource({ uri: 'engram://default/default/users/alice/episodes' })).contents[0] as {
          text: string;
        }
      ).text,
    );
    expect(own.total_count).toBe(0);
    const recalled = await call(b, 'recall', { query: 'Lisbon restaurant', user_id: 'alice' });
    expect(recalled.isError).toBeFalsy();
    expect(recalled.structuredContent.episodes).toEqual([]);
    expect(recalled.structuredContent.unprocessed_messages).toEqual([]);
  });

  it("cannot use another tenant's session id", async () => {
    const sessionId = (a.transport as any).sessionId as string;
    expect(sessionId).toBeTruthy();
    const res = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${keyB}`,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  });
});
