import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../helpers/cluster.js';
import { ADMIN_URL } from '../helpers/drivers.js';
import { MIN, T0, user } from '../helpers/messages.js';
import { waitFor } from '../helpers/wait.js';
import { AGENT_TOOL_NAMES, call, errorOf, httpClient, ok } from '../mcp/helpers.js';

/**
 * Three `engram serve` processes on one PostgreSQL database behind a round-robin proxy
 * with no sticky routing: every REST and MCP request may land on any node.
 */

const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

describe.skipIf(!ADMIN_URL)('three nodes behind a round-robin proxy [postgres]', () => {
  let c: Cluster;
  let key: string;
  let otherKey: string;
  let client: Client;

  beforeAll(async () => {
    c = await startCluster(3);
    key = await c.key('tenant-a');
    otherKey = await c.key('tenant-b');
    client = await httpClient(c.url, key);
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await c?.close();
  });

  /** Subscribes the client to mira's episode; collects the URIs it is notified of. */
  const subscribeToMirasEpisode = async () => {
    const got = await ok(client, 'get_memories', { memory_type: 'episode', user_id: 'mira' });
    const id = got.episodes[0].id as string;
    const uri = `engram://default/default/episodes/${id}`;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updated.push(n.params.uri);
    });
    await client.subscribeResource({ uri });
    return { id, uri, updated };
  };
  /** Changes the episode through one node (not the proxy): that node writes the notification. */
  const updateEpisode = (nodeUrl: string, id: string, summary: string) =>
    fetch(`${nodeUrl}/api/v2/memory/update`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ memory_type: 'episode', memory_id: id, patch: { summary } }),
    });

  it('REST: concurrent async adds spread over the nodes are all extracted once and seen by every node', async () => {
    const sessions = ['r1', 'r2', 'r3', 'r4'];
    const adds = await Promise.all(
      Array.from({ length: 24 }, (_, i) => {
        const session = sessions[i % sessions.length]!;
        const round = Math.floor(i / sessions.length);
        return c.call('POST', '/api/v2/memory/add', key, {
          session_id: session,
          async_mode: true,
          messages: [
            user(
              `walker-${session}`,
              `Day ${round}: I walked ${round + 3} km along the canal.`,
              T0 + i * MIN,
            ),
          ],
        });
      }),
    );
    for (const a of adds) expect(a.status).toBe(202);
    for (const a of adds) {
      await waitFor(`task ${a.body.data.task_id}`, async () => {
        const t = await c.call('GET', `/api/v2/tasks/${a.body.data.task_id}`, key);
        return t.body.data?.status === 'success';
      });
    }
    for (const session of sessions) {
      const f = await c.call('POST', '/api/v2/memory/flush', key, { session_id: session });
      expect(f.status).toBe(200);
      expect(f.body.data.status).toBe('extracted');
    }
    // each session's six messages make one episode, whichever node is asked
    for (let n = 0; n < 3; n++)
      for (const session of sessions) {
        const got = await c.call('POST', '/api/v2/memory/get', key, {
          memory_type: 'episode',
          user_id: `walker-${session}`,
        });
        expect(got.status).toBe(200);
        expect(got.body.data.total_count).toBe(1);
      }
    const spread = new Set(c.proxy.backendsFor((r) => r.path === '/api/v2/memory/add'));
    expect(spread.size).toBe(3);
    // bad input: the documented envelope from any node
    for (let n = 0; n < 3; n++) {
      const bad = await c.call('POST', '/api/v2/memory/add', key, { session_id: 'x', messages: [] });
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe('InvalidParameter');
    }
  });

  it('MCP: one session is served by every node, with no sticky routing', async () => {
    const before = c.proxy.served.length;
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(AGENT_TOOL_NAMES);
    const r = await ok(client, 'remember', {
      session_id: 'm1',
      messages: [
        user('mira', 'I keep bees on the roof of my building.', T0),
        user('mira', 'The honey this year tasted of lime blossom.', T0 + MIN),
      ],
    });
    expect(r.message_count).toBe(2);
    expect((await ok(client, 'flush_session', { session_id: 'm1' })).status).toBe('extracted');
    const got = await ok(client, 'get_memories', { memory_type: 'episode', user_id: 'mira' });
    expect(got.total_count).toBe(1);
    const recalled = await ok(client, 'recall', { query: 'bees honey', user_id: 'mira' });
    expect(recalled.episodes.length).toBe(1);
    const err = await call(client, 'get_memories', { memory_type: 'nope', user_id: 'mira' });
    expect(err.isError).toBe(true);
    expect(errorOf(err).code).toBe('InvalidParameter');
    const used = new Set(
      c.proxy.served
        .slice(before)
        .flatMap((x) => (x.path === '/mcp' && x.method === 'POST' ? [x.backend] : [])),
    );
    expect(used.size).toBe(3);
  });

  it('MCP: a resource subscription hears changes made on every node, and replays after Last-Event-ID', async () => {
    const { id, uri, updated } = await subscribeToMirasEpisode();
    // the change is made (and its notification written) by each node in turn
    for (const [n, node] of c.nodes.entries()) {
      const res = await updateEpisode(node.url, id, `Bees, edit ${n}`);
      expect(res.status).toBe(200);
      await waitFor(`notification ${n + 1}`, () => updated.filter((u) => u === uri).length >= n + 1);
    }
    // a stream opened on any node with Last-Event-ID: 0 replays the session's notifications
    // (straight to a node, so that the proxy's log holds only the client's own streams)
    const sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
    const replay = await fetch(`${c.nodes[2]!.url}/mcp`, {
      headers: {
        ...MCP_HEADERS,
        accept: 'text/event-stream',
        authorization: `Bearer ${key}`,
        'mcp-session-id': sessionId,
        'last-event-id': '0',
      },
    });
    expect(replay.status).toBe(200);
    const reader = replay.body!.getReader();
    let text = '';
    await waitFor('replayed events', async () => {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
      return (text.match(/notifications\/resources\/updated/g) ?? []).length >= 3;
    });
    await reader.cancel();
    expect(text).toContain(uri);
    // another tenant cannot open, use or close the session on any node
    for (let n = 0; n < 3; n++) {
      const res = await fetch(`${c.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${otherKey}`, 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(res.status).toBe(404);
    }
    await client.unsubscribeResource({ uri });
  });

  it('MCP: a closed session is gone on every node', async () => {
    const other = await httpClient(c.url, key);
    const transport = other.transport as unknown as { sessionId: string; terminateSession(): Promise<void> };
    await other.listTools();
    await other.listTools();
    const sessionId = transport.sessionId;
    await transport.terminateSession();
    // The node that closed it forgets it at once; the others hear it through NOTIFY, which
    // arrives a moment later: wait until three requests in a row (one per node, the proxy
    // takes turns) answer 404.
    const statuses: number[] = [];
    await waitFor('the closed session answered 404 by every node', async () => {
      const res = await fetch(`${c.url}/mcp`, {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${key}`, 'mcp-session-id': sessionId },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      await res.body?.cancel();
      statuses.push(res.status);
      return statuses.length >= 3 && statuses.slice(-3).every((s) => s === 404);
    });
    expect(statuses.filter((s) => s !== 200 && s !== 404)).toEqual([]);
    await other.close();
  });

  it('MCP: the event stream survives the node that served it going away', async () => {
    const { id, uri, updated } = await subscribeToMirasEpisode();
    const sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
    const streams = () => c.proxy.served.filter((r) => r.method === 'GET' && r.session === sessionId);
    const streamNode = streams().at(-1)!.backend;
    await c.nodes[streamNode]!.stop('SIGKILL');
    // changed at once, before the client has reconnected: replayed after Last-Event-ID
    const live = c.nodes.filter((_, n) => n !== streamNode);
    const res = await updateEpisode(live[0]!.url, id, 'Bees, after the loss');
    expect(res.status).toBe(200);
    await waitFor('the notification after reconnecting', () => updated.includes(uri));
    const resumed = streams().at(-1)!;
    expect(resumed.backend).not.toBe(streamNode);
    expect(Number(resumed.lastEventId)).toBeGreaterThan(0);
    // the session goes on through the surviving nodes
    expect((await ok(client, 'get_memories', { memory_type: 'episode', user_id: 'mira' })).total_count).toBe(
      1,
    );
  });
});
