import type { PurgeCounts } from '../engine/memory/purge.js';
import type { CliContext } from './main.js';
import { viaOwnerOrLocal } from './owner.js';

/**
 * `engram purge [--older-than-days N] [--tenant NAME] [--json]`: removes for good the
 * memory and messages that delete only marked (all of them, or those deleted at least N
 * days ago), through the owner of an embedded data dir when one runs. Prints the counts.
 */
export async function runPurge(ctx: CliContext): Promise<number> {
  const daysFlag = ctx.flags['older-than-days'] ?? '0';
  const days = Number(daysFlag);
  if (typeof daysFlag !== 'string' || !/^\d+(\.\d+)?$/.test(daysFlag) || days > 36_500) {
    process.stderr.write('engram: --older-than-days must be a number of days from 0 to 36500\n');
    return 2;
  }
  const tenant = ctx.flags['tenant'];
  if (tenant !== undefined && (typeof tenant !== 'string' || tenant === '')) {
    process.stderr.write('engram: --tenant needs a NAME\n');
    return 2;
  }
  const olderThanMs = Math.round(days * 86_400_000);
  const counts = await viaOwnerOrLocal<PurgeCounts>(
    ctx.config,
    ctx.log,
    'purge',
    { op: 'purge', args: { olderThanMs, ...(tenant ? { tenant } : {}) } },
    (e) => e.memory.purge(olderThanMs, tenant),
  );
  if (ctx.flags['json']) ctx.out(JSON.stringify(counts));
  else
    ctx.out(
      `purged ${Object.entries(counts)
        .map(([table, n]) => `${n} ${table}`)
        .join(', ')}`,
    );
  return 0;
}
