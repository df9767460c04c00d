#!/usr/bin/env node
// Builds dist/ with tsc only when a source is newer than the last build (npm start, npm test):
// a start with nothing changed skips the compiler entirely. `npm run build` always compiles.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = 0;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

let built = 0;
try {
  built = statSync(stamp).mtimeMs;
} catch {
  // never built
}
const inputs = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'].map((p) =>
  newest(join(root, p)),
);
if (built > 0 && Math.max(...inputs) < built) process.exit(0);
const started = Date.now();
execFileSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
writeFileSync(stamp, `${new Date(started).toISOString()}\n`);
// stamped with the start time: a source saved while tsc ran is newer, so the next start builds
utimesSync(stamp, new Date(started), new Date(started));
