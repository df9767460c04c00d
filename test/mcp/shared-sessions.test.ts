import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';
import { waitFor } from '../helpers/wait.js';
import { AGENT_TOOL_NAMES, ok } from './helpers.js';

/**
 * Two engram servers on one database, and an MCP client whose requests alternate between
 * them (a round-robin balancer without sticky sessions): the session, its subscriptions
 * and its notifications live in the database, so either server serves any request.
 */

describe.each(DRIVERS)('MCP sessions shared by the servers of one database [%s]', (driver) => {
  let a: TestServer;
  let b: TestServer;
  let key: string;
  let client: Client;
  const servedBy: string[] = [];

  beforeAll(async () => {
    a = await startTestServer(driver);
    b = await startTestServer(driver, {}, { beside: a });
    key = await a.key('tenant-a');
    let turn = 0;
    const transport = new StreamableHTTPClientTransport(new URL(`${a.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
      fetch: (input, init) => {
        const target = [a, b][turn++ % 2]!;
        servedBy.push(target === a ? 'a' : 'b');
        return fetch(String(input).replace(a.url, target.url), init);
      },
    });
    client = new Client({ name: 'engram-test', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await b?.close();
    await a?.close();
  });

  it('serves every request of one session from either server', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(AGENT_TOOL_NAMES);
    await ok(client, 'remember', {
      session_id: 'ferns',
      messages: [
        user('otto', 'I grow ferns in the shade of the north wall.', T0),
        user('otto', 'The maidenhair fern needs rain water.', T0 + MIN),
      ],
    });
    expect((await ok(client, 'flush_session', { session_id: 'ferns' })).status).toBe('extracted');
    expect((await ok(client, 'get_memories', { memory_type: 'episode', user_id: 'otto' })).total_count).toBe(
      1,
    );
    expect(new Set(servedBy)).toEqual(new Set(['a', 'b']));
    const stored = await a.engram.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mcp_sessions WHERE tenant_id = 'tenant-a'`,
    );
    expect(stored[0]!.n).toBe(1);
  });

  it('delivers a change made on either server to the subscriber', async () => {
    const got = await ok(client, 'get_memories', { memory_type: 'episode', user_id: 'otto' });
    const uri = `engram://default/default/episodes/${got.episodes[0].id}`;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri });
    for (const [n, server] of [a, b].entries()) {
      const r = await server.call('POST', '/api/v2/memory/update', {
        key,
        body: { memory_type: 'episode', memory_id: got.episodes[0].id, patch: { summary: `Ferns ${n}` } },
      });
      expect(r.status).toBe(200);
      await waitFor(`notification ${n + 1}`, () => updated.filter((u) => u === uri).length >= n + 1);
    }
    await client.unsubscribeResource({ uri });
    const subs = await a.engram.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM mcp_subscriptions`);
    expect(subs[0]!.n).toBe(0);
  });

  it('answers 404 for a session id that was never opened, on both servers', async () => {
    for (const server of [a, b]) {
      const r = await server.call('POST', '/mcp', {
        key,
        headers: {
          accept: 'application/json, text/event-stream',
          'mcp-session-id': '00000000-0000-4000-8000-000000000000',
          'mcp-protocol-version': '2025-06-18',
        },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      expect(r.status).toBe(404);
    }
  });
});
