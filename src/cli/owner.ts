import type { Config } from '../config.js';
import { callControl } from '../control/client.js';
import type { ControlRequest } from '../control/protocol.js';
import type { Logger } from '../core/log.js';
import { type Engram, openEngram } from '../engram.js';
import { DataDirBusyError, waitForOwnerSocket } from '../store/lock.js';

/**
 * Runs a short command either in this process (server database, or an embedded data dir
 * nobody owns) or through the control socket of the process that owns the data dir.
 */
export async function viaOwnerOrLocal<T>(
  config: Config,
  log: Logger,
  command: string,
  remote: ControlRequest,
  local: (engram: Engram) => Promise<T>,
): Promise<T> {
  if (!config.databaseUrl) {
    const owner = await waitForOwnerSocket(config.dataDir);
    if (owner?.socket) return (await callControl(owner.socket, remote)) as T;
    if (owner) throw new DataDirBusyError(config.dataDir, owner);
  }
  const engram = await openEngram(config, { command, log });
  try {
    return await local(engram);
  } finally {
    await engram.close();
  }
}
