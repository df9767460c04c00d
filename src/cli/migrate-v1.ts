import type { V1MigrationCounts } from '../engine/v1/migrate.js';
import type { CliContext } from './main.js';
import { openOwnerOrLocal } from './owner.js';

/** One bar line: `v1 -> v2 [#####-----] 120/300 (40%)`. */
export function progressLine(c: V1MigrationCounts, width = 30): string {
  const share = c.total ? c.migrated / c.total : 1;
  const filled = Math.round(share * width);
  return `v1 -> v2 [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${c.migrated}/${c.total} (${Math.floor(share * 100)}%)`;
}

/**
 * `engram migrate v1-to-v2 --tenant T [--batch N]`: copies the tenant's v1 messages into
 * v2 one batch at a time (each batch one transaction, through the owner of an embedded
 * data dir when one runs), drawing a progress bar on stderr and printing the final counts
 * on stdout. Stopped at any point, running it again carries on where it stopped.
 */
export async function runV1ToV2(ctx: CliContext): Promise<number> {
  const tenant = ctx.flags['tenant'];
  if (typeof tenant !== 'string' || tenant === '') {
    process.stderr.write('engram: migrate v1-to-v2 needs --tenant NAME\n');
    return 2;
  }
  const batchFlag = ctx.flags['batch'] ?? '100';
  const batch = Number(batchFlag);
  if (typeof batchFlag !== 'string' || !/^\d+$/.test(batchFlag) || batch < 1 || batch > 500) {
    process.stderr.write('engram: --batch must be a whole number from 1 to 500\n');
    return 2;
  }
  const tty = process.stderr.isTTY === true;
  const show = (c: V1MigrationCounts) =>
    process.stderr.write(tty ? `\r${progressLine(c)}` : `${progressLine(c)}\n`);
  const where = await openOwnerOrLocal(ctx.config, ctx.log, 'migrate v1-to-v2');
  try {
    const step = (size: number) =>
      where.run<V1MigrationCounts>({ op: 'v1.migrate', args: { tenant, batch: size } }, (e) =>
        e.v1.migrate(tenant, size),
      );
    let counts = await step(0);
    show(counts);
    let copied = 0;
    while (counts.migrated < counts.total) {
      counts = await step(batch);
      if (counts.batch === 0) break;
      copied += counts.batch;
      show(counts);
    }
    if (tty) process.stderr.write('\n');
    ctx.out(
      `tenant ${tenant}: ${counts.migrated} of ${counts.total} v1 messages in v2 ` +
        `(${copied} copied by this run, ${counts.total - counts.migrated} left)`,
    );
    return counts.migrated === counts.total ? 0 : 1;
  } finally {
    await where.close();
  }
}
