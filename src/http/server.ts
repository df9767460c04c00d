import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Engram } from '../engram.js';
import { createHttpApp } from './app.js';
import { answerClientError } from './client-error.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

const KEEP_ALIVE_MS = 65_000;

/** Starts the HTTP listener (REST, and MCP at /mcp once mounted) on config.host:port. */
export async function startHttpServer(engram: Engram): Promise<RunningServer> {
  const { config, log } = engram;
  const app = createHttpApp(engram, config, log);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, () => resolve(s));
    s.once('error', reject);
  });
  // Idle keep-alive connections stay open for a minute: a client reusing one just as a
  // short timeout closes it gets a connection reset instead of an answer.
  (server as { keepAliveTimeout?: number }).keepAliveTimeout = KEEP_ALIVE_MS;
  server.on('clientError', answerClientError);
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  const url = `http://${host}:${addr.port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
