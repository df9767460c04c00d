import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { toEngramError } from '../core/errors.js';
import type { Engram } from '../engram.js';
import { type ControlRequest, type ControlResponse, controlSocketPath } from './protocol.js';

/** Hands an MCP session over the socket to whoever serves MCP in this process. */
export type McpSocketHandler = (socket: Socket, tenant: string) => Promise<void>;

export interface ControlServer {
  path: string;
  close(): Promise<void>;
}

export async function startControlServer(engram: Engram, onMcp?: McpSocketHandler): Promise<ControlServer> {
  const path = controlSocketPath(engram.config.dataDir);
  rmSync(path, { force: true }); // we hold the data dir lock, so any socket file here is stale
  const server: Server = createServer((socket) => {
    socket.on('error', () => {});
    const lines = createInterface({ input: socket });
    lines.once('line', (line) => {
      lines.close();
      socket.pause();
      void handle(engram, socket, line, onMcp);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  chmodSync(path, 0o600);
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(path, { force: true });
      }),
  };
}

async function handle(engram: Engram, socket: Socket, line: string, onMcp?: McpSocketHandler) {
  const reply = (r: ControlResponse) => socket.write(`${JSON.stringify(r)}\n`);
  try {
    const req = JSON.parse(line) as ControlRequest;
    if (req.op === 'mcp') {
      if (!onMcp) throw new Error('this engram process does not serve MCP');
      await engram.keys.ensureTenant(req.args.tenant);
      reply({ ok: true, result: null });
      socket.resume();
      await onMcp(socket, req.args.tenant);
      return;
    }
    reply({ ok: true, result: await run(engram, req) });
  } catch (err) {
    const e = toEngramError(err);
    reply({
      ok: false,
      error: {
        code: e.code,
        message: e.code === 'InternalError' ? String((err as Error).message) : e.message,
      },
    });
  }
  socket.end();
}

async function run(engram: Engram, req: Exclude<ControlRequest, { op: 'mcp' }>): Promise<unknown> {
  switch (req.op) {
    case 'ping':
      return { pid: process.pid, version: engram.version };
    case 'keys.create':
      return engram.keys.create(req.args.tenant, req.args.apiVersion, req.args.label);
    case 'keys.list':
      return engram.keys.list(req.args.tenant);
    case 'keys.revoke':
      return engram.keys.revoke(req.args.key);
    case 'v1.migrate':
      return engram.v1.migrate(req.args.tenant, req.args.batch);
    case 'purge':
      return engram.memory.purge(req.args.olderThanMs, req.args.tenant);
    default:
      throw new Error(`unknown control op ${(req as { op: string }).op}`);
  }
}
