import { resolve } from 'node:path';
import { z } from 'zod';
import { connectionTarget } from './store/postgres-url.js';

/**
 * All configuration, parsed once at start from the environment and CLI flags (flags win).
 * Nothing else in engram reads process.env. A bad value fails fast with a message that
 * names the variable.
 */
const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);
const optionalUrl = z.url({ protocol: /^https?$/ }).optional();
const bool = z
  .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

/** `scheme://host[:port]`, exactly as a browser sends it in an Origin header. */
const origin = z.string().refine(
  (o) => {
    try {
      return new URL(o).origin === o;
    } catch {
      return false;
    }
  },
  { message: 'each origin must be scheme://host[:port], without a path or a trailing slash' },
);
const originList = z
  .string()
  .default('')
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .pipe(z.array(origin));

/** Each setting: its environment variable, CLI flag (if any) and schema. */
const SETTINGS = {
  port: { env: 'ENGRAM_PORT', flag: 'port', schema: int(0, 65535).default(8787) },
  host: { env: 'ENGRAM_HOST', flag: 'host', schema: z.string().min(1).default('127.0.0.1') },
  /** Browser origins /mcp accepts besides loopback ones (MCP transport: servers validate Origin). */
  allowedOrigins: { env: 'ENGRAM_ALLOWED_ORIGINS', flag: undefined, schema: originList },
  dataDir: { env: 'ENGRAM_DATA_DIR', flag: 'data-dir', schema: z.string().min(1).default('./data') },
  databaseUrl: {
    env: 'DATABASE_URL',
    flag: 'database-url',
    schema: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      // libpq's host and port parameters, read as the server driver reads them
      .superRefine((url, ctx) => {
        try {
          connectionTarget(url);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
        }
      })
      .optional(),
  },
  dbPoolMax: { env: 'ENGRAM_DB_POOL_MAX', flag: undefined, schema: int(1, 1000).default(10) },
  /**
   * Seconds an unused connection of the server driver's pool stays open; 0 keeps it until its
   * lifetime (30-60 min) ends. A new connection's first statements on each table cost several
   * times a warm one's (docs/search.md, "A search after a lull").
   */
  dbIdleSeconds: { env: 'ENGRAM_DB_IDLE_SECONDS', flag: undefined, schema: int(0, 86_400).default(0) },
  logLevel: {
    env: 'ENGRAM_LOG_LEVEL',
    flag: 'log-level',
    schema: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  },
  maxBodyBytes: { env: 'ENGRAM_MAX_BODY_BYTES', flag: undefined, schema: int(1024).default(8 * 1024 * 1024) },
  rateLimitRps: {
    env: 'ENGRAM_RATE_LIMIT_RPS',
    flag: undefined,
    schema: z.coerce.number().min(0).default(50),
  },
  rateLimitBurst: { env: 'ENGRAM_RATE_LIMIT_BURST', flag: undefined, schema: int(1).default(100) },
  authCacheMs: { env: 'ENGRAM_AUTH_CACHE_MS', flag: undefined, schema: int(0).default(5000) },
  mcpTenant: {
    env: 'ENGRAM_MCP_TENANT',
    flag: 'tenant',
    schema: z.string().min(1).max(128).default('local'),
  },
  metrics: { env: 'ENGRAM_METRICS', flag: undefined, schema: bool.default(true) },
  accessLog: { env: 'ENGRAM_ACCESS_LOG', flag: undefined, schema: bool.default(false) },
  mcpTools: {
    env: 'ENGRAM_MCP_TOOLS',
    flag: 'mcp-tools',
    schema: z.enum(['agent', 'all']).default('agent'),
  },
  workers: { env: 'ENGRAM_WORKERS', flag: undefined, schema: bool.default(true) },
  workerConcurrency: { env: 'ENGRAM_WORKER_CONCURRENCY', flag: undefined, schema: int(1, 64).optional() },
  taskMaxAttempts: { env: 'ENGRAM_TASK_MAX_ATTEMPTS', flag: undefined, schema: int(1, 100).default(5) },
  taskLeaseMs: { env: 'ENGRAM_TASK_LEASE_MS', flag: undefined, schema: int(1000).default(60_000) },
  syncWaitMs: { env: 'ENGRAM_SYNC_WAIT_MS', flag: undefined, schema: int(0).default(120_000) },
  llmBaseUrl: { env: 'ENGRAM_LLM_BASE_URL', flag: undefined, schema: optionalUrl },
  llmApiKey: { env: 'ENGRAM_LLM_API_KEY', flag: undefined, schema: z.string().optional() },
  llmModel: { env: 'ENGRAM_LLM_MODEL', flag: undefined, schema: z.string().min(1).default('gpt-4o-mini') },
  llmTimeoutMs: { env: 'ENGRAM_LLM_TIMEOUT_MS', flag: undefined, schema: int(100).default(60_000) },
  llmMaxRetries: { env: 'ENGRAM_LLM_MAX_RETRIES', flag: undefined, schema: int(0, 10).default(2) },
  embeddingBaseUrl: { env: 'ENGRAM_EMBEDDING_BASE_URL', flag: undefined, schema: optionalUrl },
  embeddingApiKey: { env: 'ENGRAM_EMBEDDING_API_KEY', flag: undefined, schema: z.string().optional() },
  embeddingModel: {
    env: 'ENGRAM_EMBEDDING_MODEL',
    flag: undefined,
    schema: z.string().min(1).default('text-embedding-3-small'),
  },
  embeddingDimensions: {
    env: 'ENGRAM_EMBEDDING_DIMENSIONS',
    flag: undefined,
    schema: int(1, 16000).optional(),
  },
  rerankUrl: { env: 'ENGRAM_RERANK_URL', flag: undefined, schema: optionalUrl },
  rerankApiKey: { env: 'ENGRAM_RERANK_API_KEY', flag: undefined, schema: z.string().optional() },
  rerankModel: { env: 'ENGRAM_RERANK_MODEL', flag: undefined, schema: z.string().optional() },
  boundaryGapMinutes: { env: 'ENGRAM_BOUNDARY_GAP_MINUTES', flag: undefined, schema: int(1).default(240) },
  // Segment caps: one segment becomes one episode, and a search answer carries each
  // episode with all its facts, so an episode stays small enough that a client reading
  // the answer in order into a ~1,000-token context gets more than one of them (docs/search.md).
  boundaryMaxMessages: {
    env: 'ENGRAM_BOUNDARY_MAX_MESSAGES',
    flag: undefined,
    schema: int(2, 1000).default(12),
  },
  boundaryMaxTokens: { env: 'ENGRAM_BOUNDARY_MAX_TOKENS', flag: undefined, schema: int(100).default(2000) },
  /** Postings the keyword route reads per query term: deeper is closer to exact BM25 on a large memory, and slower. */
  keywordDepth: { env: 'ENGRAM_KEYWORD_DEPTH', flag: undefined, schema: int(100, 100_000_000).default(1000) },
  s3Bucket: { env: 'ENGRAM_S3_BUCKET', flag: undefined, schema: z.string().min(3).max(63).optional() },
  s3Region: { env: 'ENGRAM_S3_REGION', flag: undefined, schema: z.string().min(1).default('us-east-1') },
  s3Endpoint: { env: 'ENGRAM_S3_ENDPOINT', flag: undefined, schema: optionalUrl },
  s3ForcePathStyle: { env: 'ENGRAM_S3_FORCE_PATH_STYLE', flag: undefined, schema: bool.default(false) },
  s3AccessKeyId: { env: 'ENGRAM_S3_ACCESS_KEY_ID', flag: undefined, schema: z.string().min(1).optional() },
  s3SecretAccessKey: {
    env: 'ENGRAM_S3_SECRET_ACCESS_KEY',
    flag: undefined,
    schema: z.string().min(1).optional(),
  },
  /** Buffered messages that received nothing new for this long are extracted; 0 turns it off. */
  idleExtractMinutes: {
    env: 'ENGRAM_IDLE_EXTRACT_MINUTES',
    flag: undefined,
    schema: z.coerce.number().min(0).max(10_080).default(30),
  },
  /** Soft-deleted memory and messages are removed for good after this many days; 0 keeps them for `engram purge`. */
  purgeDeletedAfterDays: {
    env: 'ENGRAM_PURGE_DELETED_AFTER_DAYS',
    flag: undefined,
    schema: z.coerce.number().min(0).max(36_500).default(0),
  },
} as const;

type Settings = typeof SETTINGS;
export type Config = { -readonly [K in keyof Settings]: z.output<Settings[K]['schema']> };

/**
 * A value as a configuration error shows it: the password of a URL in it masked
 * (`scheme://user:***@host`), so a start that fails on a bad DATABASE_URL does not write
 * the database's password into a log. The password runs to the value's last `@`, so one
 * left unencoded (a `/` or an `@` in it, the kind of URL that fails) is masked whole.
 */
export const shownValue = (raw: string | undefined): string =>
  JSON.stringify(raw?.replace(/(\/\/[^/:@\s]*:)\S*@/, '$1***@'));

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Flags accepted on the command line, by name (`--data-dir`). */
export const CONFIG_FLAGS = Object.values(SETTINGS)
  .map((s) => s.flag)
  .filter((f): f is NonNullable<typeof f> => f !== undefined);

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: Record<string, string | undefined> = {},
): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, s] of Object.entries(SETTINGS)) {
    const fromFlag = s.flag ? flags[s.flag] : undefined;
    let raw = fromFlag ?? env[s.env];
    if (raw === '') raw = undefined;
    if (key === 'llmApiKey' && raw === undefined) raw = env['OPENAI_API_KEY'];
    const parsed = (s.schema as z.ZodType).safeParse(raw);
    if (parsed.success) out[key] = parsed.data;
    else {
      const where = fromFlag !== undefined ? `--${s.flag}` : s.env;
      problems.push(`${where}=${shownValue(raw)}: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    }
  }
  if (problems.length) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const config = out as Config;
  config.dataDir = resolve(config.dataDir);
  return config;
}

/**
 * Background jobs run at once in one process, unless ENGRAM_WORKER_CONCURRENCY says: 4 on
 * PostgreSQL, 2 on the embedded store. A job spends most of its time waiting on the
 * database (its statements, HNSW and index writes), which a PostgreSQL server runs on
 * several cores: offline, 64 clients, 20 s windows, three alternated pairs on 2 cores,
 * 2 -> 4 workers processed 462 / 419 / 474 -> 531 / 565 / 487 messages/s. PGlite runs one
 * statement at a time in this process: 194 / 195 -> 192 / 191, while each more job queues
 * ahead of the searches. Four of the pool's connections at most (ENGRAM_DB_POOL_MAX, 10).
 */
export const workerConcurrencyFor = (
  config: Pick<Config, 'workerConcurrency'>,
  driver: 'postgres' | 'pglite',
) => config.workerConcurrency ?? (driver === 'postgres' ? 4 : 2);

/** The documented settings, for the README table and `engram --help`. */
export function describeSettings(): { env: string; flag?: string }[] {
  return Object.values(SETTINGS).map((s) => (s.flag ? { env: s.env, flag: `--${s.flag}` } : { env: s.env }));
}
