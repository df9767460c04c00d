import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db, Sql } from '../core/db.js';
import type { Embedder, Extractor } from '../core/ports.js';

/**
 * engram's Prometheus metrics (GET /metrics), one registry per engram instance. The
 * engine knows nothing of them: the composition root wraps the store, the extractor and
 * the embedder in timing decorators, and gives the queue an observer; the transports
 * time requests and tool calls. Labels never carry tenant data (routes are patterns).
 */
const LATENCY = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SLOW = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export class Metrics {
  readonly registry = new Registry();
  readonly contentType = this.registry.contentType;
  private readonly http = new Histogram({
    name: 'engram_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY,
    registers: [this.registry],
  });
  private readonly httpTotal = new Counter({
    name: 'engram_http_requests_total',
    help: 'HTTP requests by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly tool = new Histogram({
    name: 'engram_mcp_tool_duration_seconds',
    help: 'MCP tool call latency by tool and outcome (ok, error).',
    labelNames: ['tool', 'outcome'] as const,
    buckets: LATENCY,
    registers: [this.registry],
  });
  private readonly task = new Histogram({
    name: 'engram_task_duration_seconds',
    help: 'Background job run time by task type and outcome (success, retry, failed).',
    labelNames: ['type', 'outcome'] as const,
    buckets: SLOW,
    registers: [this.registry],
  });
  private readonly extraction = new Histogram({
    name: 'engram_extraction_duration_seconds',
    help: 'Extractor calls by step (extract, isTopicShift, distillSkill), extractor kind and outcome.',
    labelNames: ['step', 'extractor', 'outcome'] as const,
    buckets: SLOW,
    registers: [this.registry],
  });
  private readonly embedding = new Histogram({
    name: 'engram_embedding_duration_seconds',
    help: 'Embedding calls by embedder and outcome.',
    labelNames: ['embedder', 'outcome'] as const,
    buckets: LATENCY,
    registers: [this.registry],
  });
  private readonly embedded = new Counter({
    name: 'engram_embedded_texts_total',
    help: 'Texts embedded, by embedder.',
    labelNames: ['embedder'] as const,
    registers: [this.registry],
  });
  private readonly dbDuration = new Histogram({
    name: 'engram_db_duration_seconds',
    help: 'Time a statement or a transaction holds a database connection, by kind.',
    labelNames: ['kind'] as const,
    buckets: LATENCY,
    registers: [this.registry],
  });
  private readonly dbBusy = new Gauge({
    name: 'engram_db_connections_in_use',
    help: 'Database connections in use by this process (statements and transactions running).',
    registers: [this.registry],
  });

  constructor(opts: { dbPoolMax: number; queueDepth?: () => Promise<Record<string, number>> }) {
    collectDefaultMetrics({ register: this.registry, prefix: 'engram_' });
    new Gauge({
      name: 'engram_db_pool_max',
      help: 'Connections this process may open (1 for the embedded store).',
      registers: [this.registry],
    }).set(opts.dbPoolMax);
    const depth = opts.queueDepth;
    if (depth)
      new Gauge({
        name: 'engram_queue_depth',
        help: 'Unfinished background jobs by state (queued, processing, pending), all tenants.',
        labelNames: ['state'] as const,
        registers: [this.registry],
        async collect() {
          const counts = await depth();
          for (const state of ['queued', 'processing', 'pending']) this.set({ state }, counts[state] ?? 0);
        },
      });
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.http.observe(labels, seconds);
    this.httpTotal.inc(labels);
  }

  observeTool(tool: string, ok: boolean, seconds: number): void {
    this.tool.observe({ tool, outcome: ok ? 'ok' : 'error' }, seconds);
  }

  observeTask(type: string, outcome: 'success' | 'retry' | 'failed', seconds: number): void {
    this.task.observe({ type, outcome }, seconds);
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The store, timing each statement and transaction and counting connections in use. */
  instrumentDb(db: Db): Db {
    const timed = async <T>(kind: string, run: () => Promise<T>): Promise<T> => {
      this.dbBusy.inc();
      const end = this.dbDuration.startTimer({ kind });
      try {
        return await run();
      } finally {
        end();
        this.dbBusy.dec();
      }
    };
    return {
      driver: db.driver,
      query: (text, params) => timed('statement', () => db.query(text, params)),
      transaction: <T>(fn: (tx: Sql) => Promise<T>) => timed('transaction', () => db.transaction(fn)),
      listen: (channel, onPayload) => db.listen(channel, onPayload),
      exclusive: (key, fn) => db.exclusive(key, fn),
      close: () => db.close(),
    };
  }

  /** The extractor, timing each step. */
  instrumentExtractor(extractor: Extractor): Extractor {
    return timedMethods(extractor, ['extract', 'isTopicShift', 'distillSkill'], (step, ok, seconds) =>
      this.extraction.observe({ step, extractor: extractor.kind, outcome: ok ? 'ok' : 'error' }, seconds),
    );
  }

  /** The embedder, timing each call and counting texts. */
  instrumentEmbedder(embedder: Embedder): Embedder {
    return timedMethods(embedder, ['embed'], (_step, ok, seconds, args) => {
      this.embedding.observe({ embedder: embedder.id, outcome: ok ? 'ok' : 'error' }, seconds);
      if (ok) this.embedded.inc({ embedder: embedder.id }, (args[0] as readonly string[]).length);
    });
  }
}

/**
 * The same object with the named async methods timed; every other member (getters, private
 * state, extra methods such as an embedder's init) reaches the original.
 */
function timedMethods<T extends object>(
  target: T,
  names: string[],
  observe: (name: string, ok: boolean, seconds: number, args: unknown[]) => void,
): T {
  return new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof prop !== 'string' || !names.includes(prop)) return value.bind(t);
      return async (...args: unknown[]) => {
        const start = performance.now();
        let ok = false;
        try {
          const out = await value.apply(t, args);
          ok = true;
          return out;
        } finally {
          observe(prop, ok, (performance.now() - start) / 1000, args);
        }
      };
    },
  });
}
