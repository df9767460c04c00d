import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpSocketHandler } from '../control/server.js';
import type { Engram } from '../engram.js';
import { createMcpServer, type PendingEngram } from './server.js';

/**
 * MCP over a byte stream pair (newline-delimited JSON-RPC): the process's stdin/stdout
 * for `engram mcp`, or a control-socket connection handed over by a second process.
 * Resolves when the peer has gone (input ended) and the server is closed.
 */
export async function serveMcpStream(
  engram: Engram | PendingEngram,
  tenant: string,
  input: Readable,
  output: Writable,
): Promise<void> {
  input.pause(); // nothing may be read before the transport listens
  const mcp = createMcpServer(engram, { tenantId: tenant });
  const closed = new Promise<void>((resolve) => {
    const previous = mcp.server.onclose;
    mcp.server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  const stop = () => void mcp.close().catch(() => {});
  input.once('end', stop);
  input.once('close', stop);
  output.once('error', stop);
  await mcp.connect(new StdioServerTransport(input, output));
  input.resume();
  await closed;
}

/** The control server's `mcp` op: serve the tenant over the socket until the peer leaves. */
export function mcpSocketHandler(engram: Engram): McpSocketHandler {
  return (socket: Socket, tenant: string) => serveMcpStream(engram, tenant, socket, socket);
}
