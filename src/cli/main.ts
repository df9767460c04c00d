import { parseArgs } from 'node:util';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { createLogger, type Logger } from '../core/log.js';
import { VectorConfigError } from '../engine/vector-index.js';
import { DataDirError } from '../store/data-dir.js';
import { DataDirBusyError } from '../store/lock.js';
import { VERSION } from '../version.js';

const HELP = `engram ${VERSION} - long-term memory for AI agents

Usage:
  engram serve   [--port N] [--host H]
                 HTTP listener: REST API, MCP at /mcp, /openapi.json, /metrics
  engram mcp     [--tenant NAME] [--mcp-tools agent|all]
                 MCP over stdio for one tenant (through a running owner of the data dir)
  engram keys create --tenant NAME [--api-version v1|v2] [--label TEXT]
                 prints the new API key alone on stdout (KEY=$(engram keys create ...)),
                 its key id on stderr
  engram keys list [--tenant NAME] [--json]
                 key ids, tenants and states (never the secrets); --json for scripts
  engram keys revoke KEY_ID
                 KEY_ID as keys create and keys list show it (the whole key works too)
  engram migrate apply database migrations and exit
  engram migrate v1-to-v2 --tenant NAME [--batch N]
                 copy the tenant's legacy v1 memories into v2 (N per transaction,
                 default 100); stopped at any point, run it again to carry on
  engram reindex re-embed every memory with the configured embedding model
  engram purge   [--older-than-days N] [--tenant NAME] [--json]
                 remove for good what delete only marked (messages and memory),
                 all of it or what was deleted at least N days ago

Options of every command:
  --data-dir DIR       embedded store directory (ENGRAM_DATA_DIR, default ./data)
  --database-url URL   a PostgreSQL server instead of the embedded store (DATABASE_URL)
  --log-level LEVEL    debug, info, warn, error or silent (ENGRAM_LOG_LEVEL, default info)
  -h, --help           this text
  -v, --version        the version

Configuration comes from the environment (see README), flags override it.
`;

const COMMON = {
  port: { type: 'string' },
  host: { type: 'string' },
  'data-dir': { type: 'string' },
  'database-url': { type: 'string' },
  'log-level': { type: 'string' },
  'mcp-tools': { type: 'string' },
  tenant: { type: 'string' },
  'api-version': { type: 'string' },
  label: { type: 'string' },
  batch: { type: 'string' },
  'older-than-days': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export interface CliContext {
  config: Config;
  log: Logger;
  flags: Record<string, string | boolean | undefined>;
  positionals: string[];
  out: (line: string) => void;
}

export async function main(argv: string[]): Promise<void> {
  try {
    const code = await run(argv);
    if (code !== undefined) process.exitCode = code;
  } catch (err) {
    if (
      err instanceof ConfigError ||
      err instanceof DataDirBusyError ||
      err instanceof DataDirError ||
      err instanceof VectorConfigError
    ) {
      process.stderr.write(`engram: ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    const e = err as Error & { code?: string };
    process.stderr.write(`engram: ${e.message ?? String(err)}\n`);
    process.exitCode = 1;
  }
}

async function run(argv: string[]): Promise<number | undefined> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: COMMON,
    allowPositionals: true,
    strict: true,
  });
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command || command === 'help') {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 1;
  }
  const flags = values as Record<string, string | boolean | undefined>;
  const stringFlags = Object.fromEntries(
    Object.entries(flags).filter(([, v]) => typeof v === 'string'),
  ) as Record<string, string>;
  const config = loadConfig(process.env, stringFlags);
  const log = createLogger(config.logLevel);
  const ctx: CliContext = {
    config,
    log,
    flags,
    positionals: rest,
    out: (l) => process.stdout.write(`${l}\n`),
  };
  // Each command loads only what it needs (an agent starts `engram mcp` on every launch).
  switch (command) {
    case 'serve':
      return (await import('./serve.js')).runServe(ctx);
    case 'keys':
      return (await import('./keys.js')).runKeys(ctx);
    case 'mcp':
      return (await import('./mcp.js')).runMcp(ctx);
    case 'migrate':
      return rest[0] === 'v1-to-v2'
        ? (await import('./migrate-v1.js')).runV1ToV2(ctx)
        : (await import('./migrate.js')).runMigrate(ctx);
    case 'reindex':
      return (await import('./reindex.js')).runReindex(ctx);
    case 'purge':
      return (await import('./purge.js')).runPurge(ctx);
    default:
      process.stderr.write(`engram: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}
