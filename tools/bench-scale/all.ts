/**
 * `npm run bench:scale`: the search part, then the ingest part, each in its own process.
 *
 *   npm run bench:scale -- --data <locomo10.json> [--drivers postgres,pglite]
 *
 * Only --data and --drivers are passed on (both parts take them); run
 * `bench:scale:search` or `bench:scale:ingest` for their other options.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: { data: { type: 'string' }, drivers: { type: 'string' } },
});
if (!args.data) {
  console.error('usage: npm run bench:scale -- --data <locomo10.json> [--drivers postgres,pglite]');
  process.exit(2);
}
const pass = ['--data', args.data, ...(args.drivers ? ['--drivers', args.drivers] : [])];
for (const part of ['search', 'ingest']) {
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(`./${part}.ts`, import.meta.url)), ...pass],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}
