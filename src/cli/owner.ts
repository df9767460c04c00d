import type { Config } from '../config.js';
import { callControl } from '../control/client.js';
import type { ControlRequest } from '../control/protocol.js';
import type { Logger } from '../core/log.js';
import { type Engram, openEngram } from '../engram.js';
import { DataDirBusyError, waitForOwnerSocket } from '../store/lock.js';

/** Where a command's requests run: the owner's control socket or an engram opened here. */
export interface OwnerOrLocal {
  run<T>(remote: ControlRequest, local: (engram: Engram) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Opens the place a command runs: the control socket of the process that owns an
 * embedded data dir, or (server database, or an embedded data dir nobody owns) an engram
 * in this process, kept open for every request until close.
 */
export async function openOwnerOrLocal(config: Config, log: Logger, command: string): Promise<OwnerOrLocal> {
  if (!config.databaseUrl) {
    const owner = await waitForOwnerSocket(config.dataDir);
    const socket = owner?.socket;
    if (socket)
      return {
        run: async <T>(remote: ControlRequest) => (await callControl(socket, remote)) as T,
        close: async () => {},
      };
    if (owner) throw new DataDirBusyError(config.dataDir, owner);
  }
  const engram = await openEngram(config, { command, log });
  return { run: (_remote, local) => local(engram), close: () => engram.close() };
}

/** Runs one short command through the owner or in this process. */
export async function viaOwnerOrLocal<T>(
  config: Config,
  log: Logger,
  command: string,
  remote: ControlRequest,
  local: (engram: Engram) => Promise<T>,
): Promise<T> {
  const where = await openOwnerOrLocal(config, log, command);
  try {
    return await where.run(remote, local);
  } finally {
    await where.close();
  }
}
