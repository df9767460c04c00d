import { openControl } from '../control/client.js';
import { startControlServer } from '../control/server.js';
import { TENANT_RE } from '../engine/keys.js';
import { openEngram } from '../engram.js';
import { serveMcpStream } from '../mcp/stdio.js';
import { DataDirBusyError, type LockInfo, readOwner } from '../store/lock.js';
import type { CliContext } from './main.js';

/**
 * `engram mcp`: MCP over stdio for one tenant (ENGRAM_MCP_TENANT / --tenant). stdout
 * carries only the protocol; logs go to stderr.
 *
 * On an embedded data dir owned by a live engram (serve, or another `engram mcp`), the
 * session is bridged to the owner's control socket and served there: this process never
 * opens the store. Otherwise this process opens it, becomes the owner, and listens on a
 * control socket itself; it then stays up until its own client and every bridged
 * session have gone.
 */
export async function runMcp(ctx: CliContext): Promise<number> {
  const { config } = ctx;
  const tenant = config.mcpTenant;
  if (!TENANT_RE.test(tenant)) {
    process.stderr.write('engram: --tenant must be 1-128 characters of [a-zA-Z0-9_.@+-]\n');
    return 2;
  }
  if (config.databaseUrl) return serveHere(ctx, tenant);
  for (let attempt = 0; ; attempt++) {
    const owner = await ownerWithSocket(config.dataDir);
    if (owner?.socket) return bridge(owner.socket, tenant);
    if (owner) throw new DataDirBusyError(config.dataDir, owner);
    try {
      return await serveHere(ctx, tenant);
    } catch (err) {
      // another process took the data dir between our look and our lock: go through it
      if (!(err instanceof DataDirBusyError) || attempt >= 3) throw err;
    }
  }
}

/** The owner, once it listens on its control socket (a starting or short-lived owner gets a moment). */
async function ownerWithSocket(dataDir: string, timeoutMs = 15_000): Promise<LockInfo | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const owner = readOwner(dataDir);
    if (!owner || owner.socket || Date.now() > until) return owner;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Pipes stdio to an MCP session served by the owner; returns when the owner side closes. */
async function bridge(socketPath: string, tenant: string): Promise<number> {
  const { socket } = await openControl(socketPath, { op: 'mcp', args: { tenant } });
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(0)));
  socket.on('error', () => {});
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  const code = await closed;
  process.stdin.unpipe(socket);
  process.stdin.destroy();
  return code;
}

async function serveHere(ctx: CliContext, tenant: string): Promise<number> {
  const { config, log } = ctx;
  const engram = await openEngram(config, { command: 'mcp', log, prepareSearch: true });
  let bridged = 0;
  let ownDone = false;
  let finish: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finish = resolve));
  const check = () => {
    if (ownDone && bridged === 0) finish();
  };
  let control: Awaited<ReturnType<typeof startControlServer>> | undefined;
  try {
    await engram.keys.ensureTenant(tenant);
    if (engram.lock) {
      control = await startControlServer(engram, async (socket, t) => {
        bridged++;
        try {
          await serveMcpStream(engram, t, socket, socket);
        } finally {
          bridged--;
          check();
        }
      });
      engram.lock.update({ socket: control.path });
    }
    log.info(`engram ${engram.version} serving MCP on stdio`, { tenant, driver: engram.db.driver });
    const stop = async () => {
      await control?.close();
      await engram.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
    await serveMcpStream(engram, tenant, process.stdin, process.stdout);
    ownDone = true;
    if (bridged > 0) log.info('stdio client gone; serving bridged MCP sessions until they end', { bridged });
    check();
    await allDone;
    return 0;
  } finally {
    await control?.close();
    await engram.close();
  }
}
