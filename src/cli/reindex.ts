import { reindex } from '../engine/reindex.js';
import { VectorIndex } from '../engine/vector-index.js';
import { openEngram } from '../engram.js';
import { DataDirBusyError, readOwner } from '../store/lock.js';
import type { CliContext } from './main.js';

/** `engram reindex`: re-embed every memory with the configured embedder, with a progress bar. */
export async function runReindex(ctx: CliContext): Promise<number> {
  if (!ctx.config.databaseUrl) {
    const owner = readOwner(ctx.config.dataDir);
    if (owner) throw new DataDirBusyError(ctx.config.dataDir, owner);
  }
  const engram = await openEngram(ctx.config, { command: 'reindex', log: ctx.log, workers: false });
  try {
    const embedder = engram.embedder as typeof engram.embedder & { init?: () => Promise<void> };
    await embedder.init?.();
    const bar = progressBar(process.stderr);
    const { embedded, switched } = await reindex(engram.db, embedder, (p) => bar(p.done, p.total, p.table));
    bar.end();
    await VectorIndex.setup(engram.db, embedder, engram.log);
    process.stderr.write(
      `re-embedded ${embedded} memories with ${embedder.id} (${embedder.dimensions} dimensions)` +
        `${switched ? '' : '; the model was already current, only missing vectors were filled'}\n`,
    );
    return 0;
  } finally {
    await engram.close();
  }
}

function progressBar(out: NodeJS.WriteStream) {
  let lastPct = -1;
  const draw = (done: number, total: number, label: string) => {
    const pct = total ? Math.floor((done / total) * 100) : 100;
    if (out.isTTY) {
      const width = 30;
      const fill = Math.round((pct / 100) * width);
      out.write(
        `\r[${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct}% ${done}/${total} ${label.padEnd(14)}`,
      );
    } else if (pct >= lastPct + 10 || done === total) {
      out.write(`reindex ${pct}% (${done}/${total})\n`);
    }
    lastPct = Math.max(lastPct, pct - (pct % 10));
  };
  return Object.assign(draw, { end: () => out.isTTY && out.write('\n') });
}
