import { openControl } from '../control/client.js';
import { startControlServer } from '../control/server.js';
import { TENANT_RE } from '../engine/keys.js';
import type { Engram } from '../engram.js';
import { serveMcpStream } from '../mcp/stdio.js';
import { acquireLock, DataDirBusyError, waitForOwnerSocket } from '../store/lock.js';
import { surviveClosedConnectionWrites } from '../store/postgres.js';
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
  if (config.databaseUrl) {
    surviveClosedConnectionWrites(ctx.log);
    return serveHere(ctx, tenant);
  }
  for (let attempt = 0; ; attempt++) {
    const owner = await waitForOwnerSocket(config.dataDir);
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
  // Take the data dir first (a busy dir sends the caller to its owner), then answer the
  // client's handshake at once while the store opens: tool calls wait for it.
  const lock = config.databaseUrl ? undefined : acquireLock(config.dataDir, 'mcp');
  // the engine's modules load while the handshake is answered, too
  let warmUpMs = 0;
  const opening = (async () => {
    const { openEngram } = await import('../engram.js');
    const e = await openEngram(config, {
      command: 'mcp',
      log,
      prepareSearch: true,
      ...(lock ? { lock } : {}),
    });
    await e.keys.ensureTenant(tenant);
    // one search on nothing before tool calls run: the first recall finds the embedder
    // loaded and the database's caches warm (a call sent meanwhile waits for it)
    warmUpMs = Math.round(await e.warmUp());
    return e;
  })();
  let bridged = 0;
  let ownDone = false;
  let finish: () => void = () => {};
  const allDone = new Promise<void>((resolve) => (finish = resolve));
  const check = () => {
    if (ownDone && bridged === 0) finish();
  };
  let engram: Engram | undefined;
  let control: Awaited<ReturnType<typeof startControlServer>> | undefined;
  const own = serveMcpStream({ config, opening }, tenant, process.stdin, process.stdout).then(() => {
    ownDone = true;
    if (bridged > 0) log.info('stdio client gone; serving bridged MCP sessions until they end', { bridged });
    check();
  });
  try {
    engram = await opening;
    if (engram.lock) {
      const ready = engram;
      control = await startControlServer(ready, async (socket, t) => {
        bridged++;
        try {
          await serveMcpStream(ready, t, socket, socket);
        } finally {
          bridged--;
          check();
        }
      });
      engram.lock.update({ socket: control.path });
    }
    log.info(`engram ${engram.version} serving MCP on stdio`, {
      tenant,
      driver: engram.db.driver,
      warm_up_ms: warmUpMs,
    });
    const stop = async () => {
      await control?.close();
      await engram?.close();
      process.exit(0);
    };
    process.once('SIGINT', () => void stop());
    process.once('SIGTERM', () => void stop());
    await own;
    await allDone;
    return 0;
  } catch (err) {
    process.stdin.destroy();
    throw err;
  } finally {
    await control?.close();
    await engram?.close();
  }
}
