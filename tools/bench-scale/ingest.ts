/**
 * Ingest at scale (not shipped): messages acknowledged per second by async adds over REST,
 * and messages processed per second by one worker process, each beside a floor measured
 * in the same run on the same store.
 *
 *   npm run bench:scale:ingest [-- --data <locomo10.json>] [--drivers postgres,pglite]
 *        [--clients 8,64] [--batch 10] [--seconds 10] [--process-seconds 20] [--statements]
 *        [--worker-concurrency N] [--assistant]
 *
 * PostgreSQL: a throwaway database created on DATABASE_URL (or ENGRAM_TEST_DATABASE_URL),
 * e.g. a cluster started by `.ci/start-postgres.sh`, dropped at the end. Embedded: a PGlite
 * data dir under the OS temp dir. The default configuration otherwise (pool size, worker
 * concurrency, offline extractor and embedder).
 *
 * Acknowledged: `clients` HTTP clients (in a child process, one keep-alive connection
 * each) post async adds of `batch` turns back to back; every client writes its own
 * sessions and owners; a message counts when its 202 arrived inside the window. Floor:
 * the same rows inserted by the same number of concurrent loops through the same driver
 * and pool, one multi-row INSERT per add (the engine's own insert, autocommit), no HTTP,
 * no task.
 *
 * Processed: after the adds, the queue starts in this process with the configured worker
 * concurrency; messages that reach `extracted` inside the window count. Floor: the offline
 * extractor and embedder alone over the same conversations' sessions, cut at the same
 * boundaries, in this process, no store. Also printed: jobs finished in the window, the
 * statements sent per job and per processed message (a transaction's BEGIN and COMMIT
 * count; on PostgreSQL each is a round trip), this process's CPU per processed message (user
 * and system time) and the bytes it wrote per processed message (on Linux, where
 * /proc/self/io counts them: on PostgreSQL its statements and their parameters, on the
 * embedded store the database's own writes of its files too).
 * The store is opened as `serve` opens it, vector (HNSW) indexes built at start.
 *
 * Conversations: LoCoMo turns read from --data (never copied), else invented chats; both are
 * of two people, each owning the memory made of the conversation (its turns, facts and
 * episode are written and indexed once per owner). --assistant: the second speaker writes as
 * an assistant, as with an agent and its user, so that memory has one owner.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, workerConcurrencyFor } from '../../src/config.js';
import type { Db } from '../../src/core/db.js';
import { newId } from '../../src/core/ids.js';
import { silentLogger } from '../../src/core/log.js';
import { cutSegments } from '../../src/engine/memory/boundary.js';
import { episodeEmbeddingText } from '../../src/engine/memory/extract.js';
import { insertMessages } from '../../src/engine/memory/messages.js';
import { boundaryRules, type Engram, openEngram, openStore } from '../../src/engram.js';
import { startHttpServer } from '../../src/http/server.js';
import { openPostgres } from '../../src/store/postgres.js';
import { percentile } from '../percentile.js';
import {
  addRequests,
  type Conversation,
  inventConversations,
  readLocomo,
  senderOf,
  withAssistant,
} from './conversations.js';
import { countedDb } from './counted-db.js';
import type { LoadSpec } from './load.js';
import { type LoadResult, measureWindow } from './window.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    drivers: { type: 'string', default: 'postgres,pglite' },
    clients: { type: 'string', default: '8,64' },
    batch: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '10' },
    'warmup-seconds': { type: 'string', default: '2' },
    'process-seconds': { type: 'string', default: '20' },
    /** Worker concurrency of the processing window (default: engram's default). */
    'worker-concurrency': { type: 'string' },
    /** Prints the statements that took most of the processing window's time. */
    statements: { type: 'boolean', default: false },
    /** The second speaker of each conversation writes as an assistant (one owner, not two). */
    assistant: { type: 'boolean', default: false },
    /** Writes a CPU profile of this process for each measured engram window into this dir. */
    'cpu-prof': { type: 'string' },
  },
});
const CLIENTS = args.clients!.split(',').map(Number);
const BATCH = Number(args.batch);
const SECONDS = Number(args.seconds);
const WARMUP = Number(args['warmup-seconds']);
const PROCESS_SECONDS = Number(args['process-seconds']);
const ADMIN_URL = process.env['DATABASE_URL'] ?? process.env['ENGRAM_TEST_DATABASE_URL'];
const read: Conversation[] = args.data ? readLocomo(args.data) : inventConversations(10);
const conversations = args.assistant ? withAssistant(read) : read;

/** Runs fn under the inspector's CPU profiler when --cpu-prof is given. */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = args['cpu-prof'];
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((res, rej) => session.post(method, params, (err, r) => (err ? rej(err) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await post('Profiler.stop');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
};
/** Bytes this process has passed to write calls, sockets included (Linux: /proc/self/io); undefined elsewhere. */
function bytesWritten(): number | undefined {
  try {
    const m = /^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}
const f0 = (x: number) => Math.round(x).toLocaleString('en-US');

/** `clients` loops inserting the same rows as the adds would, one INSERT per add. */
async function rawInserts(db: Db, clients: number, prefix: string): Promise<LoadResult> {
  const w = measureWindow(WARMUP, SECONDS);
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const gen = addRequests(conversations[c % conversations.length]!, `${prefix}c${c}`, BATCH);
      while (w.open()) {
        const next = gen.next().value!;
        const started = performance.now();
        await insertMessages(
          db,
          'bench',
          { appId: 'raw', projectId: 'default' },
          next.session_id,
          next.messages,
          `task_raw_${newId()}`,
        );
        w.record(started, performance.now(), next.messages.length);
      }
    }),
  );
  return w.result;
}

/** Runs the HTTP clients in a child process, so that they do not share the server's event loop. */
function httpLoad(spec: LoadSpec): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./load.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (m: LoadResult & { error?: string }) => {
      child.kill();
      if (m.error) reject(new Error(m.error));
      else resolve(m);
    });
    child.once('error', reject);
    child.send(spec);
  });
}

/** Messages per second through the offline extractor and embedder alone, for `seconds`. */
async function extractionFloor(engram: Engram, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let messages = 0;
  outer: for (const [c, conv] of conversations.entries())
    for (const [s, session] of conv.sessions.entries()) {
      const msgs = session.turns.map((t, i) => ({
        id: newId(),
        session_id: `floor-${c}-${s}`,
        ...senderOf(conv, t),
        content: t.text,
        timestamp: session.start + i * 30_000,
        tool_calls: null,
        tool_call_id: null,
      }));
      const { segments, tail } = await cutSegments(
        msgs,
        boundaryRules(engram.config),
        (buf, next) => engram.extractor.isTopicShift(buf, next),
        { flush: true, firstNew: 0 },
      );
      for (const seg of [...segments, ...(tail.length ? [tail] : [])]) {
        const humans = [...new Set(seg.filter((m) => m.role === 'user').map((m) => m.sender_id))];
        const agents = [...new Set(seg.filter((m) => m.role === 'assistant').map((m) => m.sender_id))];
        const x = await engram.extractor.extract(seg, { humans, agents });
        await engram.embedder.embed([
          episodeEmbeddingText(x.episode),
          ...x.episode.facts.map((f) => f.content),
        ]);
        messages += seg.length;
      }
      if (performance.now() > until) break outer;
    }
  return messages / ((performance.now() - t0) / 1000);
}

async function countExtracted(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM messages WHERE tenant_id = 'bench' AND app_id = 'default' AND state = 'extracted'`,
  );
  return rows[0]!.n;
}

async function countTasks(db: Db): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM tasks WHERE tenant_id = 'bench' AND status IN ('success', 'failed')`,
  );
  return rows[0]!.n;
}

async function benchDriver(driver: 'postgres' | 'pglite'): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-ingest-'));
  let url: string | undefined;
  if (driver === 'postgres') {
    if (!ADMIN_URL)
      throw new Error('postgres: set DATABASE_URL (an admin URL; a throwaway database is created)');
    const name = `engram_bench_${newId().slice(0, 12)}`;
    const admin = openPostgres(ADMIN_URL, { max: 1 });
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.close();
    const u = new URL(ADMIN_URL);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  const config = loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_DATA_DIR: dir,
    ENGRAM_LOG_LEVEL: 'silent',
    ENGRAM_RATE_LIMIT_RPS: '0',
    ENGRAM_IDLE_EXTRACT_MINUTES: '0',
    ...(args['worker-concurrency'] ? { ENGRAM_WORKER_CONCURRENCY: args['worker-concurrency'] } : {}),
    ...(url ? { DATABASE_URL: url } : {}),
  });
  // The store as `serve` opens it (vector indexes built at start), through a Db that
  // counts the statements sent.
  const store = await openStore(config, 'bench');
  const counted = countedDb(store.db);
  const engram = await openEngram(config, {
    command: 'bench',
    log: silentLogger,
    workers: false,
    prepareSearch: true,
    db: counted.db,
  });
  const lines: string[] = [];
  try {
    if (driver === 'postgres') {
      const s = await engram.db.query<{ name: string; setting: string }>(
        `SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'server_version')`,
      );
      lines.push(`postgres settings: ${s.map((r) => `${r.name}=${r.setting}`).join(', ')}`);
    }
    lines.push(
      `pool ${config.dbPoolMax} connections, worker concurrency ${workerConcurrencyFor(config, driver)}`,
    );
    const server = await startHttpServer(engram);
    const { key } = await engram.keys.create('bench');
    lines.push(
      '| clients | raw INSERT msg/s | engram acknowledged msg/s | ratio | add p50 / p95 ms (raw p50 / p95) | CPU µs per message: server + clients (raw) |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const clients of CLIENTS) {
      const rawCpu = process.cpuUsage();
      const raw = await rawInserts(engram.db, clients, `raw${clients}`);
      const rawCpuMs = cpuMsSince(rawCpu);
      const cpu = process.cpuUsage();
      const got = await profiled(`${driver}-ack-${clients}`, () =>
        httpLoad({
          url: server.url,
          key,
          clients,
          batch: BATCH,
          seconds: SECONDS,
          warmupSeconds: WARMUP,
          conversations,
          prefix: `k${clients}`,
        }),
      );
      const serverCpuMs = cpuMsSince(cpu);
      if (got.errors.length) throw new Error(`adds failed: ${got.errors.join('\n')}`);
      const rawRate = raw.messages / raw.seconds;
      const rate = got.messages / got.seconds;
      lines.push(
        `| ${clients} | ${f0(rawRate)} | ${f0(rate)} | ${(rate / rawRate).toFixed(2)} | ` +
          `${percentile(got.latenciesMs, 50).toFixed(1)} / ${percentile(got.latenciesMs, 95).toFixed(1)} ` +
          `(${percentile(raw.latenciesMs, 50).toFixed(1)} / ${percentile(raw.latenciesMs, 95).toFixed(1)}) | ` +
          `${f0((serverCpuMs * 1000) / got.total)} + ${f0((got.cpuMs * 1000) / got.total)} ` +
          `(${f0((rawCpuMs * 1000) / raw.total)}) |`,
      );
    }
    await server.close();

    await engram.embedder.embed(['warm the model']);
    const floor = await profiled(`${driver}-extract`, () => extractionFloor(engram, PROCESS_SECONDS / 2));
    const before = await countExtracted(engram.db);
    const tasksBefore = await countTasks(engram.db);
    const cpu = process.cpuUsage();
    const bytes0 = bytesWritten();
    const t0 = performance.now();
    const statements0 = counted.statements();
    const times0 = new Map(counted.times().map((t) => [t.text, t]));
    const processed = await profiled(`${driver}-process`, async () => {
      await engram.queue.start(false);
      await new Promise((r) => setTimeout(r, PROCESS_SECONDS * 1000));
      return (await countExtracted(engram.db)) - before;
    });
    const elapsed = (performance.now() - t0) / 1000;
    const statements = counted.statements() - statements0;
    const cpuUsed = process.cpuUsage(cpu);
    const bytes1 = bytesWritten();
    const tasks = (await countTasks(engram.db)) - tasksBefore;
    await engram.queue.stop();
    const rate = processed / elapsed;
    const perMessage = (x: number) => f0(x / Math.max(1, processed));
    lines.push(
      '',
      '| extraction alone msg/s | engram processed msg/s (one process) | ratio | jobs done | statements per job (per message) | CPU µs per message: user + system | bytes written per message |',
      '| --- | --- | --- | --- | --- | --- | --- |',
      `| ${f0(floor)} | ${f0(rate)} | ${(rate / floor).toFixed(2)} | ${tasks} | ` +
        `${(statements / Math.max(1, tasks)).toFixed(1)} (${(statements / Math.max(1, processed)).toFixed(2)}) | ` +
        `${perMessage(cpuUsed.user + cpuUsed.system)}: ${perMessage(cpuUsed.user)} + ${perMessage(cpuUsed.system)} | ` +
        `${bytes0 !== undefined && bytes1 !== undefined ? perMessage(bytes1 - bytes0) : '—'} |`,
    );
    if (args.statements) {
      // Where the processing window's statement time went (wall time from send to answer).
      const spent = counted
        .times()
        .map((t) => ({
          ...t,
          calls: t.calls - (times0.get(t.text)?.calls ?? 0),
          ms: t.ms - (times0.get(t.text)?.ms ?? 0),
        }))
        .filter((t) => t.calls > 0)
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 8);
      lines.push('', '| statement | calls | ms per call | ms per job |', '| --- | --- | --- | --- |');
      for (const t of spent)
        lines.push(
          `| ${t.text.replace(/\s+/g, ' ').slice(0, 90)} | ${t.calls} | ${(t.ms / t.calls).toFixed(2)} | ` +
            `${(t.ms / Math.max(1, tasks)).toFixed(2)} |`,
        );
    }
  } finally {
    await engram.close();
    await store.db.close();
    store.lock?.release();
    rmSync(dir, { recursive: true, force: true });
    if (url) {
      const admin = openPostgres(ADMIN_URL!, { max: 1 });
      await admin.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
      await admin.close();
    }
  }
  return lines;
}

async function main() {
  console.log(
    `ingest: ${args.data ? 'LoCoMo turns' : 'invented chats'} (${args.assistant ? 'a person and an assistant' : 'two people'}), ${BATCH} messages per add, ` +
      `${SECONDS} s per measurement after ${WARMUP} s warm-up, processing ${PROCESS_SECONDS} s`,
  );
  for (const driver of args.drivers!.split(',') as ('postgres' | 'pglite')[]) {
    console.log(`\n## ${driver === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)'}\n`);
    for (const line of await benchDriver(driver)) console.log(line);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
