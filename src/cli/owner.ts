import type { Config } from '../config.js';
import { callControl } from '../control/client.js';
import type { ControlRequest } from '../control/protocol.js';
import type { Logger } from '../core/log.js';
import { type Engram, openEngram } from '../engram.js';
import { DataDirBusyError, type LockInfo, readOwner } from '../store/lock.js';

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

/** A serving owner (serve, mcp) opens its control socket once its store is ready: give it a moment. */
async function waitForOwnerSocket(dataDir: string, timeoutMs = 15_000): Promise<LockInfo | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const owner = readOwner(dataDir);
    const serving = owner?.command === 'serve' || owner?.command === 'mcp';
    if (!owner || owner.socket || !serving || Date.now() > until) return owner;
    await new Promise((r) => setTimeout(r, 200));
  }
}
