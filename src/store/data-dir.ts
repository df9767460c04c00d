import { accessSync, chmodSync, constants, lstatSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** The embedded data directory cannot be used (not creatable, not a directory, no access). */
export class DataDirError extends Error {
  constructor(dataDir: string, problem: string) {
    super(
      `data directory ${dataDir} cannot be used: ${problem}. Set ENGRAM_DATA_DIR (or --data-dir) to a writable directory.`,
    );
    this.name = 'DataDirError';
  }
}

/**
 * Makes the embedded data directory private to the owner, in one place, before the store
 * opens: the process umask becomes 077 (so everything written after, the lock and every
 * file and directory PGlite makes, is 0600 / 0700; see narrowDataDir for the one
 * exception), missing directories are created one
 * level at a time with mode 0700, and an existing tree is narrowed to 0700 / 0600. Creating
 * level by level (not `mkdir -p`) fails at once on paths such as /proc/x, where a recursive
 * mkdir retries forever.
 */
export function preparePrivateDataDir(dataDir: string): void {
  process.umask(0o077);
  const abs = resolve(dataDir);
  const missing: string[] = [];
  let p = abs;
  while (!exists(dataDir, p)) {
    missing.unshift(p);
    const parent = dirname(p);
    if (parent === p) break;
    p = parent;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new DataDirError(dataDir, describe(err));
    }
  }
  try {
    if (!statSync(abs).isDirectory()) throw new DataDirError(dataDir, 'it is not a directory');
    accessSync(abs, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch (err) {
    throw err instanceof DataDirError ? err : new DataDirError(dataDir, describe(err));
  }
  narrow(abs);
}

/**
 * Narrows the tree again once the store is open: on first start PGlite unpacks its
 * template cluster and chmods each file to the template's 0666, past the umask.
 */
export function narrowDataDir(dataDir: string): void {
  narrow(resolve(dataDir));
}

/** chmod 0700 on directories and 0600 on files of the tree we own; symlinks are left alone. */
function narrow(path: string): void {
  const st = lstatSync(path);
  if (st.isSymbolicLink() || (process.getuid && st.uid !== process.getuid())) return;
  if (st.isDirectory()) {
    if ((st.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
    for (const name of readdirSync(path)) narrow(join(path, name));
  } else if ((st.mode & 0o077) !== 0) chmodSync(path, st.mode & 0o700);
}

function exists(dataDir: string, p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch (err) {
    throw new DataDirError(dataDir, describe(err));
  }
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ? `${e.code} (${e.syscall ?? 'fs'} ${e.path ?? ''})`.replace(' )', ')') : String(err);
}
