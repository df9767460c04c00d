import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs the built CLI (`npm test` builds dist first), as a user would from a clone. */
export const CLI = join(import.meta.dirname, '..', '..', 'bin', 'engram.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ENGRAM_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** A free loopback port (bound, then released). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts `engram serve` on dataDir (or the database in env.DATABASE_URL) and waits until
 * it answers /health (and, embedded, until its lock file names its control socket).
 */
export async function startServe(dataDir: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  // A port found free can be taken by a test running beside this one before the child binds it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServeOn(await freePort(), dataDir, env);
    } catch (err) {
      if (attempt === 3 || !/port is already in use/.test(String(err))) throw err;
    }
  }
}

async function startServeOn(
  port: number,
  dataDir: string,
  env: Record<string, string>,
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      ENGRAM_DATA_DIR: dataDir,
      ENGRAM_PORT: String(port),
      ENGRAM_LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 240_000; // within the 300 s test bound; a loaded machine starts slowly
  for (;;) {
    if (child.exitCode !== null) throw new Error(`engram serve exited ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`engram serve did not start: ${stderr}`);
    }
    if (await ready(url, env['DATABASE_URL'] ? undefined : dataDir, child.pid!)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stderr: () => stderr,
    stop: async (signal = 'SIGTERM') => {
      child.kill(signal);
      return exited;
    },
  };
}

async function ready(url: string, dataDir: string | undefined, pid: number): Promise<boolean> {
  try {
    if ((await fetch(`${url}/health`)).status !== 200) return false;
  } catch {
    return false;
  }
  if (!dataDir) return true;
  try {
    const lock = JSON.parse(readFileSync(join(dataDir, 'engram.lock'), 'utf8')) as {
      pid: number;
      socket?: string;
    };
    return lock.pid === pid && !!lock.socket;
  } catch {
    return false;
  }
}
