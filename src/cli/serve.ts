import { startControlServer } from '../control/server.js';
import { openEngram } from '../engram.js';
import { startHttpServer } from '../http/server.js';
import { mcpSocketHandler } from '../mcp/stdio.js';
import { surviveClosedConnectionWrites } from '../store/postgres.js';
import type { CliContext } from './main.js';

export async function runServe(ctx: CliContext): Promise<undefined> {
  const { config, log } = ctx;
  if (config.databaseUrl) surviveClosedConnectionWrites(log);
  const engram = await openEngram(config, { command: 'serve', log, prepareSearch: true });
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer(engram);
  } catch (err) {
    // Port in use, address not available: stop the workers, close the store and release
    // the data dir lock, so the command exits non-zero instead of running without a listener.
    await engram.close();
    throw listenError(err, config.host, config.port);
  }
  const control = engram.lock ? await startControlServer(engram, mcpSocketHandler(engram)) : undefined;
  engram.lock?.update({ url: http.url, ...(control ? { socket: control.path } : {}) });
  // The first search pays no loading (embedder, database caches): one is run on nothing now.
  void engram.warmUp();
  log.info(`engram ${engram.version} listening on ${http.url}`, {
    driver: engram.db.driver,
    inspector: `${http.url}/ui`,
    ...(engram.db.driver === 'pglite' ? { data_dir: config.dataDir } : {}),
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: shutting down`);
    await http.close();
    await control?.close();
    await engram.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  return undefined;
}

function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new Error(
      `cannot listen on ${host}:${port}: the port is already in use (set ENGRAM_PORT or --port)`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'EACCES')
    return new Error(`cannot listen on ${host}:${port}: ${code} (check ENGRAM_HOST / ENGRAM_PORT)`);
  return err as Error;
}
