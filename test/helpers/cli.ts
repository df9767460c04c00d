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

/** Starts `engram serve` on dataDir and waits until its lock file names its address. */
export async function startServe(dataDir: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, ENGRAM_DATA_DIR: dataDir, ENGRAM_PORT: '0', ENGRAM_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  let url: string | undefined;
  while (!url) {
    if (child.exitCode !== null) throw new Error(`engram serve exited ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`engram serve did not start: ${stderr}`);
    }
    try {
      const lock = JSON.parse(readFileSync(join(dataDir, 'engram.lock'), 'utf8')) as {
        pid: number;
        url?: string;
        socket?: string;
      };
      if (lock.pid === child.pid && lock.url && lock.socket) url = lock.url;
    } catch {
      // not yet written
    }
    if (!url) await new Promise((r) => setTimeout(r, 100));
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
