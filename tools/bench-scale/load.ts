/**
 * The ingest benchmark's HTTP clients, run in a child process so that making requests does
 * not share the server's event loop: `clients` loops, each on its own keep-alive
 * connection, each posting its conversation as async adds of `batch` turns, back to back,
 * for `seconds` after `warmupSeconds`. Posts back the messages and requests acknowledged
 * (202) inside the window and the request latencies.
 */
import { Agent, request } from 'node:http';
import { addRequests, type Conversation } from './conversations.js';
import { type LoadResult, measureWindow } from './window.js';

export interface LoadSpec {
  url: string;
  key: string;
  clients: number;
  batch: number;
  seconds: number;
  warmupSeconds: number;
  conversations: Conversation[];
  /** Prefix of owners and sessions, unique per run. */
  prefix: string;
}
async function run(spec: LoadSpec): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.clients });
  const url = new URL('/api/v2/memory/add', spec.url);
  const headers = { authorization: `Bearer ${spec.key}`, 'content-type': 'application/json' };
  const post = (body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(url, { method: 'POST', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  const cpu0 = process.cpuUsage();
  const w = measureWindow(spec.warmupSeconds, spec.seconds);
  await Promise.all(
    Array.from({ length: spec.clients }, async (_, c) => {
      const conv = spec.conversations[c % spec.conversations.length]!;
      const gen = addRequests(conv, `${spec.prefix}c${c}`, spec.batch);
      while (w.open()) {
        const next = gen.next().value!;
        const body = JSON.stringify({ ...next, async_mode: true });
        const started = performance.now();
        const res = await post(body);
        const ended = performance.now();
        if (res.status !== 202) {
          if (w.result.errors.length < 5) w.result.errors.push(`${res.status} ${res.text.slice(0, 300)}`);
          continue;
        }
        w.record(started, ended, next.messages.length);
      }
    }),
  );
  agent.destroy();
  const cpu = process.cpuUsage(cpu0);
  w.result.cpuMs = (cpu.user + cpu.system) / 1000;
  return w.result;
}

process.once('message', (spec: LoadSpec) => {
  run(spec).then(
    (r) => process.send!(r),
    (err) => process.send!({ error: String(err?.stack ?? err) }),
  );
});
