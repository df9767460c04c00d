import { openEngram } from '../engram.js';
import { DataDirBusyError, readOwner } from '../store/lock.js';
import { appliedMigrations } from '../store/migrate.js';
import type { CliContext } from './main.js';

/** Applies migrations (openEngram does) and reports the schema version. */
export async function runMigrate(ctx: CliContext): Promise<number> {
  if (!ctx.config.databaseUrl) {
    const owner = readOwner(ctx.config.dataDir);
    // The owner migrated its store when it started.
    if (owner) throw new DataDirBusyError(ctx.config.dataDir, owner);
  }
  const engram = await openEngram(ctx.config, { command: 'migrate', log: ctx.log });
  try {
    const versions = await appliedMigrations(engram.db);
    process.stderr.write(
      `schema at version ${versions.at(-1) ?? 0} (${versions.length} migrations applied)\n`,
    );
    return 0;
  } finally {
    await engram.close();
  }
}
