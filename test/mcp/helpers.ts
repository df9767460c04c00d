import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from '../helpers/cli.js';

/** Real MCP clients over real transports, and small helpers to read their results. */

export async function httpClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  /** Errors the client saw (a stray line on stdout would land here). */
  errors: Error[];
}

/** Spawns `node bin/engram.js mcp` (built by `npm run build`) and connects to it. */
export async function stdioClient(env: Record<string, string>, args: string[] = []): Promise<StdioSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp', ...args],
    env: { ...(process.env as Record<string, string>), ENGRAM_LOG_LEVEL: 'info', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  const errors: Error[] = [];
  client.onerror = (e) => errors.push(e);
  try {
    await client.connect(transport);
  } catch (err) {
    throw new Error(`engram mcp did not start: ${(err as Error).message}\n${stderr}`);
  }
  return { client, transport, stderr: () => stderr, errors };
}

export type ToolReply = CallToolResult & { structuredContent?: any };

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolReply> {
  return (await client.callTool({ name, arguments: args })) as ToolReply;
}

/** The structured result of a successful call (fails the test with the error text otherwise). */
export async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await call(client, name, args);
  if (r.isError) throw new Error(`${name} failed: ${text(r)}`);
  return r.structuredContent;
}

export const text = (r: CallToolResult): string =>
  r.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');

/** The REST-shaped error body of an isError result. */
export const errorOf = (r: CallToolResult): any => JSON.parse(text(r)).error;

/** Polls get_task until the task has finished. */
export async function waitTask(client: Client, taskId: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const t = await ok(client, 'get_task', { task_id: taskId });
    if (t.status === 'success' || t.status === 'failed') return t;
    if (Date.now() > until) throw new Error(`task ${taskId} still ${t.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The default set (ENGRAM_MCP_TOOLS=agent). */
export const AGENT_TOOL_NAMES = ['remember', 'recall', 'rate', 'get_memories', 'flush_session', 'get_task'];
/** ENGRAM_MCP_TOOLS=all adds the corrections, deletions and queue inspection. */
export const TOOL_NAMES = [
  ...AGENT_TOOL_NAMES,
  'update_episode',
  'delete_memories',
  'delete_episodes',
  'tag_memories',
  'untag_memories',
  'retag_memories',
  'edit_profile',
  'get_task_stats',
  'list_tasks',
  'search_knowledge',
  'get_topic',
  'add_document',
  'replace_topic_tags',
];
