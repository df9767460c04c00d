/**
 * How fast engram starts for an agent, as ratios against baselines measured in the same run
 * (so a loaded or slow machine moves both sides). Not shipped.
 *
 *   npm run bench:start [-- --runs N]
 *
 * Each run spawns fresh processes on one existing data dir (created and warmed once):
 * - baseline `node`: `node -e 0`, the floor of any process start;
 * - baseline `pglite`: a bare process that opens the embedded store (PGlite + pgvector) and
 *   closes it, the floor of anything that reads the data dir;
 * - `mcp ready`: `engram mcp` from spawn to its `initialize` answer;
 * - `mcp ready, new dir` / `mcp recall, new dir`: the same on a data dir created by that run
 *   (the store is created and migrated while the handshake is answered);
 * - `mcp recall`: from spawn to the answer of a first `recall` sent right after initialize;
 * - `recall after ready`: the same recall, counted from the initialize answer;
 * - `recall, warm process`: a first `recall` sent to an `engram mcp` that is up (its
 *   "serving MCP" log line: store open, search warmed up), from request to answer, the way
 *   an agent's first question reaches a process its client started earlier; `next recall`:
 *   a second one in the same process (the steady state);
 * - `serve /health`: `node bin/engram.js serve` from spawn to a 200 on /health, and
 *   `npm start` (which first checks whether dist/ is stale) with nothing changed.
 * Prints medians in ms and each as a multiple of the baselines. Targets from the issue:
 * mcp ready < 1 s, and the first recall < 0.5 s from a running process (`recall, warm process`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const RUNS = Number(values.runs);
const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'bin', 'engram.js');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function exitTime(args: string[], env: Record<string, string> = {}): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: 'ignore',
    cwd: ROOT,
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${args} exited ${code}`)),
    ),
  );
}

interface McpTimes {
  ready: number;
  recall: number;
  afterReady: number;
  /** With `warm`: the first recall sent once the process is up, and a second one. */
  first: number;
  next: number;
}

async function mcpRun(dataDir: string, warm = false): Promise<McpTimes> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, 'mcp', '--tenant', 'bench'], {
    env: { ...process.env, ENGRAM_DATA_DIR: dataDir, ENGRAM_LOG_LEVEL: warm ? 'info' : 'warn' },
    stdio: ['pipe', 'pipe', warm ? 'pipe' : 'inherit'],
  });
  let log = '';
  const up = new Promise<void>((resolve) =>
    child.stderr?.on('data', (d) => {
      log += d;
      if (log.includes('serving MCP on stdio')) resolve();
    }),
  );
  const waiting = new Map<number, (m: { result?: { isError?: boolean } }) => void>();
  let buf = '';
  child.stdout!.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const msg = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  const request = (id: number, method: string, params: unknown) =>
    new Promise<{ result?: { isError?: boolean } }>((resolve) => {
      waiting.set(id, resolve);
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench-start', version: '1' },
  });
  const ready = performance.now();
  child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  if (warm) await up;
  const sent = performance.now();
  const recall = async (id: number, query: string) => {
    const r = await request(id, 'tools/call', { name: 'recall', arguments: { query, user_id: 'ida' } });
    if (r.result?.isError !== false && r.result?.isError !== undefined) throw new Error('recall failed');
  };
  await recall(2, 'tea');
  const done = performance.now();
  await recall(3, 'what does ida drink in the morning');
  const next = performance.now() - done;
  await stop(child);
  return { ready: ready - t0, recall: done - t0, afterReady: done - ready, first: done - sent, next };
}

async function serveRun(dataDir: string, viaNpm: boolean): Promise<number> {
  const port = await freePort();
  const t0 = performance.now();
  const env = {
    ...process.env,
    ENGRAM_DATA_DIR: dataDir,
    ENGRAM_PORT: String(port),
    ENGRAM_LOG_LEVEL: 'warn',
  };
  const child = viaNpm
    ? spawn('npm', ['start', '--silent'], { env, stdio: 'ignore', cwd: ROOT, detached: true })
    : spawn(process.execPath, [CLI, 'serve'], { env, stdio: 'ignore', cwd: ROOT });
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error('serve exited');
    await new Promise((r) => setTimeout(r, 10));
  }
  const t = performance.now() - t0;
  await stop(child, viaNpm);
  return t;
}

function stop(child: ChildProcess, group = false): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    if (group) process.kill(-child.pid!, 'SIGTERM');
    else if (child.stdin) child.stdin.end();
    else child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-bench-start-'));
  try {
    // an existing data dir with a memory in it, and the vector cache written
    const note = spawn(process.execPath, [CLI, 'mcp', '--tenant', 'bench'], {
      env: { ...process.env, ENGRAM_DATA_DIR: dataDir, ENGRAM_LOG_LEVEL: 'warn' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    const stored = new Promise<void>((resolve) =>
      note.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('"id":2')) resolve();
      }),
    );
    note.stdin!.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'b', version: '1' } } })}\n` +
        `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'remember', arguments: { note: 'Ida drinks jasmine tea every morning.', user_id: 'ida' } } })}\n`,
    );
    await stored;
    await stop(note);
    await mcpRun(dataDir);

    const pgOpen = `import('@electric-sql/pglite').then(async ({ PGlite }) => { const { vector } = await import('@electric-sql/pglite-pgvector'); const db = await PGlite.create(${JSON.stringify(join(dataDir, 'pg'))}, { extensions: { vector } }); await db.query('SELECT 1'); await db.close(); })`;
    const rows: Record<string, number[]> = {
      node: [],
      pglite: [],
      'mcp ready, new dir': [],
      'mcp recall, new dir': [],
      'mcp ready': [],
      'mcp recall': [],
      'recall after ready': [],
      'recall, warm process': [],
      'next recall': [],
      'serve /health': [],
      'npm start /health': [],
    };
    for (let i = 0; i < RUNS; i++) {
      rows['node']!.push(await exitTime(['-e', '0']));
      rows['pglite']!.push(await exitTime(['-e', pgOpen]));
      const fresh = mkdtempSync(join(tmpdir(), 'engram-bench-start-new-'));
      try {
        const n = await mcpRun(fresh);
        rows['mcp ready, new dir']!.push(n.ready);
        rows['mcp recall, new dir']!.push(n.recall);
      } finally {
        rmSync(fresh, { recursive: true, force: true });
      }
      const m = await mcpRun(dataDir);
      rows['mcp ready']!.push(m.ready);
      rows['mcp recall']!.push(m.recall);
      rows['recall after ready']!.push(m.afterReady);
      const w = await mcpRun(dataDir, true);
      rows['recall, warm process']!.push(w.first);
      rows['next recall']!.push(w.next);
      rows['serve /health']!.push(await serveRun(dataDir, false));
      rows['npm start /health']!.push(await serveRun(dataDir, true));
    }
    const node = median(rows['node']!);
    const pglite = median(rows['pglite']!);
    console.log(
      `engram start, ${RUNS} runs, medians (x node -e 0 = ${node.toFixed(0)} ms, x bare PGlite open = ${pglite.toFixed(0)} ms)`,
    );
    for (const [name, xs] of Object.entries(rows)) {
      const m = median(xs);
      console.log(
        `${name.padEnd(20)} ${m.toFixed(0).padStart(6)} ms   ${(m / node).toFixed(2).padStart(6)} x node   ${(m / pglite).toFixed(2).padStart(6)} x pglite`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
