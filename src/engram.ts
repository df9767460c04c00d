import { join } from 'node:path';
import { type Config, workerConcurrencyFor } from './config.js';
import { MAX_SIZE } from './contract/objects.js';
import type { Db } from './core/db.js';
import type { Logger } from './core/log.js';
import type { Embedder, Extractor, Llm } from './core/ports.js';
import { MemoryEvents } from './engine/events.js';
import { TaskQueue } from './engine/jobs/queue.js';
import { KnowledgeService } from './engine/kb/service.js';
import { KeyService } from './engine/keys.js';
import type { BoundaryRules } from './engine/memory/boundary.js';
import { MemoryService } from './engine/memory/service.js';
import { ObjectService } from './engine/objects.js';
import { HttpReranker } from './engine/search/rerank.js';
import { SearchService } from './engine/search/service.js';
import { warmUpSearch } from './engine/search/warm-up.js';
import { TaskService } from './engine/tasks.js';
import { V1SelfHostedService } from './engine/v1/self-hosted.js';
import { V1Service } from './engine/v1/service.js';
import { VectorIndex } from './engine/vector-index.js';
import { Metrics } from './observability/metrics.js';
import { createEmbedder, type ManagedEmbedder } from './providers/embeddings/index.js';
import { createLlm, LlmExtractor } from './providers/llm/index.js';
import { OfflineExtractor } from './providers/offline/index.js';
import { narrowDataDir } from './store/data-dir.js';
import { acquireLock, type DataDirLock } from './store/lock.js';
import { migrate } from './store/migrate.js';
import { LocalObjectStore } from './store/objects-local.js';
import { S3ObjectStore } from './store/objects-s3.js';
import { openPglite } from './store/pglite.js';
import { refreshStatistics } from './store/pglite-statistics.js';
import { openPostgres } from './store/postgres.js';
import { VERSION } from './version.js';

/**
 * The composition root: opens the store, runs migrations, picks the providers from
 * configuration and wires the engine's services. Transports (HTTP, MCP, CLI) receive an
 * Engram and never build these parts themselves.
 */
export interface Engram {
  readonly version: string;
  readonly config: Config;
  readonly db: Db;
  readonly log: Logger;
  readonly keys: KeyService;
  readonly memory: MemoryService;
  readonly tasks: TaskService;
  readonly search: SearchService;
  /** The legacy v1 (Cloud) interface and its store. */
  readonly v1: V1Service;
  /** The self-hosted v1 memory interface (`/api/v1/memory/*`). */
  readonly v1SelfHosted: V1SelfHostedService;
  /** Signed uploads (object/sign) and the objects they stored. */
  readonly objects: ObjectService;
  readonly kb: KnowledgeService;
  readonly queue: TaskQueue;
  readonly events: MemoryEvents;
  /** Prometheus metrics of this process (GET /metrics). */
  readonly metrics: Metrics;
  readonly extractor: Extractor;
  readonly embedder: Embedder;
  readonly llm: Llm | undefined;
  /** Present when this process owns an embedded data directory. */
  readonly lock: DataDirLock | undefined;
  /** Runs one search on nothing so the first real one is fast (serving processes); answers its ms. */
  warmUp(): Promise<number>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Name of the command opening the store, recorded in the data dir lock. */
  command: string;
  log: Logger;
  /** Use an already-open database (tests); the caller keeps ownership of it. */
  db?: Db;
  /** Run background jobs in this process (default: config.workers). */
  workers?: boolean;
  /** Override the providers chosen from configuration (tests, benchmarks). */
  embedder?: Embedder;
  /**
   * Check the embedder against the database and build vector indexes now, and start loading
   * the offline embedder's model while the store opens (serving processes). Short commands
   * (keys, migrate) skip it; search does it on first use.
   */
  prepareSearch?: boolean;
  /** The data dir lock, already acquired by the caller (which then need not wait for the open). */
  lock?: DataDirLock;
}

export async function openStore(
  config: Config,
  command: string,
  held?: DataDirLock,
): Promise<{ db: Db; lock?: DataDirLock }> {
  if (config.databaseUrl)
    return {
      db: openPostgres(config.databaseUrl, {
        max: config.dbPoolMax,
        idleTimeoutSeconds: config.dbIdleSeconds,
      }),
    };
  const lock = held ?? acquireLock(config.dataDir, command);
  try {
    const db = await openPglite(join(config.dataDir, 'pg'));
    narrowDataDir(config.dataDir);
    return { db, lock };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** How often the embedded store's workers refresh statistics and vector indexes. */
export const PGLITE_UPKEEP_MS = 2 * 60_000;

export async function openEngram(config: Config, opts: OpenOptions): Promise<Engram> {
  const log = opts.log;
  const rawEmbedder = opts.embedder ?? createEmbedder(config);
  // The offline model loads from its cache file off the main thread while the store opens.
  if (opts.prepareSearch && dimensionsKnown(rawEmbedder))
    void (rawEmbedder as Partial<ManagedEmbedder>)
      .init?.()
      .catch((err: unknown) => log.warn('embedder warm-up failed', { err }));
  const store = opts.db ? { db: opts.db, lock: undefined } : await openStore(config, opts.command, opts.lock);
  const lock = store.lock;
  // `queue` is created below; the gauge reads it only when /metrics is scraped.
  const metrics: Metrics = new Metrics({
    dbPoolMax: config.databaseUrl ? config.dbPoolMax : 1,
    queueDepth: (): Promise<Record<string, number>> => queue.depth(),
  });
  const db = metrics.instrumentDb(store.db);
  const closeStore = async () => {
    if (!opts.db) await db.close().catch(() => {});
    lock?.release();
  };
  try {
    const applied = await migrate(db);
    if (applied.length) opts.log.info('migrations applied', { versions: applied });
  } catch (err) {
    await closeStore();
    throw err;
  }
  const llm = createLlm(config, log);
  const extractor: Extractor = metrics.instrumentExtractor(
    llm ? new LlmExtractor(llm, { logger: log }) : new OfflineExtractor(),
  );
  const embedder = metrics.instrumentEmbedder(rawEmbedder);
  let vectorIndex: VectorIndex | undefined;
  if (opts.prepareSearch) {
    try {
      // A remote model of unknown size learns its dimension here (one request); a model
      // whose size is known is not loaded at start (serve warms it in the background).
      if (!dimensionsKnown(embedder)) await (embedder as Embedder & { init(): Promise<void> }).init();
      vectorIndex = await VectorIndex.setup(db, embedder, log);
    } catch (err) {
      await closeStore();
      throw err;
    }
  }
  const events = new MemoryEvents();
  const queue = new TaskQueue(db, log, {
    concurrency: workerConcurrencyFor(config, db.driver),
    sharedSlots: db.driver === 'pglite',
    leaseMs: config.taskLeaseMs,
    maxAttempts: config.taskMaxAttempts,
    observe: (type, outcome, seconds) => metrics.observeTask(type, outcome, seconds),
  });
  const objects = new ObjectService(
    db,
    config.s3Bucket
      ? new S3ObjectStore({
          bucket: config.s3Bucket,
          region: config.s3Region,
          endpoint: config.s3Endpoint,
          forcePathStyle: config.s3ForcePathStyle,
          accessKeyId: config.s3AccessKeyId,
          secretAccessKey: config.s3SecretAccessKey,
        })
      : new LocalObjectStore(db, join(config.dataDir, 'objects')),
  );
  const memory = new MemoryService(
    {
      db,
      objectText: (tenantId, key, param) => objects.textOf(tenantId, key, param),
      queue,
      extractor,
      embedder,
      events,
      log,
      syncWaitMs: config.syncWaitMs,
      rules: boundaryRules(config),
    },
    config.idleExtractMinutes * 60_000,
    config.purgeDeletedAfterDays * 86_400_000,
  );
  const reranker = config.rerankUrl
    ? new HttpReranker({
        url: config.rerankUrl,
        ...(config.rerankApiKey ? { apiKey: config.rerankApiKey } : {}),
        ...(config.rerankModel ? { model: config.rerankModel } : {}),
      })
    : undefined;
  const search = new SearchService({
    db,
    embedder,
    llm,
    reranker,
    log,
    vectorIndex,
    keywordDepth: config.keywordDepth,
  });
  const kb = new KnowledgeService({
    db,
    queue,
    embedder,
    llm,
    reranker,
    log,
    events,
    vectorIndex: () => search.vectorIndex(),
    objects: objects.store,
    objectFile: async (tenantId, key, param) => {
      const { bytes, row } = await objects.fileOf(tenantId, key, param, () => MAX_SIZE.file);
      return { bytes, fileName: row.file_name };
    },
  });
  if (db.driver === 'pglite')
    // PGlite has no autovacuum: its planner statistics and visibility map are kept here,
    // and a vector table that outgrows the HNSW threshold gets its index without a restart.
    queue.every(PGLITE_UPKEEP_MS, async () => {
      const tables = await refreshStatistics(db);
      if (tables.length) log.info('statistics refreshed', { tables });
      await (await search.vectorIndex()).maintain();
    });
  if (opts.workers ?? config.workers) await queue.start(lock !== undefined);
  let closed = false;
  return {
    version: VERSION,
    config,
    db,
    log,
    keys: new KeyService(db),
    memory,
    tasks: new TaskService(db),
    search,
    v1: new V1Service(db, memory, search),
    v1SelfHosted: new V1SelfHostedService(memory, search),
    objects,
    kb,
    queue,
    events,
    metrics,
    extractor,
    embedder,
    llm,
    lock,
    warmUp: () => warmUpSearch(search, log),
    async close() {
      if (closed) return;
      closed = true;
      await queue.stop();
      await closeStore();
    },
  };
}

/** Where a session's messages are cut into segments, from configuration. */
export function boundaryRules(config: Config): BoundaryRules {
  return {
    gapMs: config.boundaryGapMinutes * 60_000,
    maxMessages: config.boundaryMaxMessages,
    maxTokens: config.boundaryMaxTokens,
    minMessagesBeforeShift: 4,
  };
}

function dimensionsKnown(embedder: Embedder): boolean {
  try {
    return embedder.dimensions > 0;
  } catch {
    return false;
  }
}
