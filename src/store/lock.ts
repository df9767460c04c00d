import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { preparePrivateDataDir } from './data-dir.js';

/**
 * One process owns an embedded data directory. PGlite has no lock of its own and two
 * processes writing one directory silently lose committed rows, so the owner holds
 * `engram.lock` (created atomically) for as long as it runs. The lock names the owner
 * (pid, command, HTTP address, control socket) so that a second engram process can either
 * work through the owner's control socket or stop with a message naming it.
 */
export interface LockInfo {
  pid: number;
  hostname: string;
  command: string;
  started_at: string;
  /** HTTP base URL when the owner serves HTTP. */
  url?: string;
  /** Path of the owner's control socket (see control/). */
  socket?: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockInfo,
  ) {
    super(
      `data directory ${dataDir} is in use by engram ${owner.command} (pid ${owner.pid} on ${owner.hostname}` +
        `${owner.url ? `, ${owner.url}` : ''}, since ${owner.started_at}). ` +
        'An embedded data directory has one owner: stop that process, use another ENGRAM_DATA_DIR, ' +
        'or run engram against PostgreSQL with DATABASE_URL.',
    );
    this.name = 'DataDirBusyError';
  }
}

export interface DataDirLock {
  readonly path: string;
  readonly info: LockInfo;
  /** Rewrites the lock with more facts about the owner (address, socket) once known. */
  update(extra: Partial<LockInfo>): void;
  release(): void;
}

const lockPath = (dataDir: string) => join(dataDir, 'engram.lock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live owner of dataDir, or undefined when nobody holds it (a stale lock counts as none). */
export function readOwner(dataDir: string): LockInfo | undefined {
  let info: LockInfo;
  try {
    info = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
  } catch {
    return undefined;
  }
  if (info.hostname === hostname() && !isAlive(info.pid)) return undefined;
  return info;
}

export function acquireLock(dataDir: string, command: string): DataDirLock {
  preparePrivateDataDir(dataDir);
  const path = lockPath(dataDir);
  const info: LockInfo = {
    pid: process.pid,
    hostname: hostname(),
    command,
    started_at: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    // Write a private file, then hard-link it into place: link() fails if the lock
    // exists, so exactly one process wins even when several start together.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(info));
    try {
      linkSync(tmp, path);
      rmSync(tmp, { force: true });
      return makeLock(path, info);
    } catch (err) {
      rmSync(tmp, { force: true });
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = readOwner(dataDir);
    if (owner) throw new DataDirBusyError(dataDir, owner);
    // Stale lock left by a process that died: remove it and try again.
    rmSync(path, { force: true });
  }
  const owner = readOwner(dataDir);
  throw new DataDirBusyError(dataDir, owner ?? info);
}

function makeLock(path: string, info: LockInfo): DataDirLock {
  let released = false;
  const onExit = () => release();
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', onExit);
    try {
      const current = JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
      if (current.pid === info.pid && current.hostname === info.hostname) rmSync(path, { force: true });
    } catch {
      // already gone
    }
  };
  process.on('exit', onExit);
  return {
    path,
    info,
    update(extra) {
      Object.assign(info, extra);
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(info));
      // rename over our own lock: atomic replace, readers never see a partial file
      renameSync(tmp, path);
    },
    release,
  };
}

/**
 * The owner of dataDir, once it listens on its control socket. A serving owner (serve, mcp)
 * opens the socket when its store is ready, which on a new data dir and a loaded machine can
 * take a while: wait for it as long as that owner lives (up to two minutes).
 */
export async function waitForOwnerSocket(
  dataDir: string,
  timeoutMs = 120_000,
): Promise<LockInfo | undefined> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const owner = readOwner(dataDir);
    const serving = owner?.command === 'serve' || owner?.command === 'mcp';
    if (!owner || owner.socket || !serving || Date.now() > until) return owner;
    await new Promise((r) => setTimeout(r, 200));
  }
}
