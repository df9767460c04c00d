/**
 * What an MCP tool call costs next to the equivalent REST call, end to end over loopback
 * HTTP, measured in one run against one engram (the embedded store in a temp dir, or
 * DATABASE_URL when set). Not shipped.
 *
 *   npm run bench:mcp [-- --iterations N]
 *
 * Each pair is a real REST request (fetch + JSON) and a real MCP `tools/call` through the
 * SDK Client over Streamable HTTP (one initialised session, as an agent holds it; the
 * client validates structuredContent against the tool's output schema), interleaved so that
 * drift hits both alike. Prints median / p95 per side and the ratio of medians; the target
 * is at most ~1.2.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/core/log.js';
import { openEngram } from '../src/engram.js';
import { startHttpServer } from '../src/http/server.js';
import { HashEmbedder } from '../test/helpers/hash-embedder.js';
import { multiParty } from '../test/helpers/messages.js';

const { values } = parseArgs({ options: { iterations: { type: 'string', default: '400' } } });
const N = Number(values.iterations);
const TARGET = 1.2;

interface Op {
  name: string;
  rest: { method: 'GET' | 'POST'; path: string; body?: unknown };
  tool: { name: string; arguments: Record<string, unknown> };
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-mcp-'));
  const config = loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_DATA_DIR: dir,
    ENGRAM_LOG_LEVEL: 'silent',
    ENGRAM_RATE_LIMIT_RPS: '0',
    ...(process.env['DATABASE_URL'] ? { DATABASE_URL: process.env['DATABASE_URL'] } : {}),
  });
  const engram = await openEngram(config, {
    command: 'bench',
    log: silentLogger,
    embedder: new HashEmbedder(64),
  });
  const server = await startHttpServer(engram);
  const tenant = `bench-${Date.now()}`;
  const { key } = await engram.keys.create(tenant);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    for (let i = 0; i < 5; i++) {
      const ctx = { tenantId: tenant };
      await engram.memory.add(ctx, {
        app_id: 'default',
        project_id: 'default',
        session_id: `s${i}`,
        messages: multiParty(Date.UTC(2024, 4, 8 + i)),
        async_mode: false,
      });
      await engram.memory.flush(ctx, { app_id: 'default', project_id: 'default', session_id: `s${i}` });
    }
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers },
    });
    await client.connect(transport);
    await client.listTools(); // the client caches output validators, as agents do

    const ops: Op[] = [
      {
        name: 'get memories (5 episodes)',
        rest: {
          method: 'POST',
          path: '/api/v2/memory/get',
          body: { memory_type: 'episode', user_id: 'alice' },
        },
        tool: { name: 'get_memories', arguments: { memory_type: 'episode', user_id: 'alice' } },
      },
      ...('search' in engram
        ? [
            {
              name: 'search / recall (hybrid)',
              rest: {
                method: 'POST' as const,
                path: '/api/v2/memory/search',
                body: { query: 'vegetarian restaurant in Alfama', user_id: 'alice' },
              },
              tool: {
                name: 'recall',
                arguments: { query: 'vegetarian restaurant in Alfama', user_id: 'alice' },
              },
            },
          ]
        : []),
      {
        name: 'task stats',
        rest: { method: 'GET', path: '/api/v2/tasks/stats' },
        tool: { name: 'get_task_stats', arguments: {} },
      },
    ];
    const sessionId = (transport as unknown as { sessionId: string }).sessionId;
    const rpcHeaders = {
      ...headers,
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-06-18',
    };
    const rows: string[] = [];
    let worst = 0;
    for (const op of ops) {
      const rest = async () => {
        const res = await fetch(server.url + op.rest.path, {
          method: op.rest.method,
          headers,
          ...(op.rest.body ? { body: JSON.stringify(op.rest.body) } : {}),
        });
        if (!res.ok) throw new Error(`REST ${op.rest.path}: ${res.status}`);
        await res.json();
      };
      const sdk = async () => {
        const r = await client.callTool(op.tool);
        if (r.isError) throw new Error(`MCP ${op.tool.name}: ${JSON.stringify(r.content)}`);
      };
      let id = 0;
      const raw = async () => {
        const res = await fetch(`${server.url}/mcp`, {
          method: 'POST',
          headers: rpcHeaders,
          body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: op.tool }),
        });
        const body = (await res.json()) as { result?: { isError?: boolean } };
        if (!res.ok || !body.result || body.result.isError)
          throw new Error(`MCP ${op.tool.name}: ${res.status}`);
      };
      const sides = [rest, sdk, raw];
      const ms: number[][] = [[], [], []];
      for (let i = 0; i < 50; i++) for (const f of sides) await f();
      for (let i = 0; i < N; i++) {
        // rotate the order so that no side always runs first (or on a warmer cache)
        for (let j = 0; j < 3; j++) {
          const k = (i + j) % 3;
          const t = performance.now();
          await sides[k]!();
          ms[k]!.push(performance.now() - t);
        }
      }
      const [r, m, w] = ms as [number[], number[], number[]];
      const ratio = median(m) / median(r);
      worst = Math.max(worst, ratio);
      rows.push(
        `| ${op.name} | ${fmt(median(r))} / ${fmt(p95(r))} | ${fmt(median(m))} / ${fmt(p95(m))} | ${ratio.toFixed(2)} | ${fmt(median(w))} / ${fmt(p95(w))} | ${(median(w) / median(r)).toFixed(2)} |`,
      );
    }
    console.log(`engram bench:mcp: ${N} rounds per operation, driver ${engram.db.driver}\n`);
    console.log(
      '| operation | REST p50 / p95 ms | MCP (SDK Client) p50 / p95 ms | MCP/REST | MCP (plain JSON-RPC POST) p50 / p95 ms | plain/REST |',
    );
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of rows) console.log(r);
    console.log(
      `\nMCP/REST ratio (SDK Client, p50): worst ${worst.toFixed(2)}, target <= ${TARGET}: ${worst <= TARGET ? 'ok' : 'OVER TARGET'}`,
    );
    return worst <= TARGET ? 0 : 1;
  } finally {
    await client.close().catch(() => {});
    await server.close();
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => sorted(xs)[Math.floor(xs.length * 0.95)]!;
const fmt = (ms: number) => ms.toFixed(2);

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
