import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs a script in a fresh Node process with the guard installed; answers its exit code and stderr. */
function withGuard(thrown: string): { status: number | null; stderr: string } {
  const script = `
    import { surviveClosedConnectionWrites } from './src/store/postgres.ts';
    surviveClosedConnectionWrites({ warn: (m) => process.stderr.write('warned: ' + m + '\\n') });
    setImmediate(() => { ${thrown} });
    setTimeout(() => process.exit(0), 200);
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stderr: r.stderr };
}

it('a serve process lives on when postgres.js writes to a connection that closed (and only then)', () => {
  // postgres.js 3.4.9's nextWrite on a closed socket: the error as it is thrown from the timer
  const closed = withGuard(`
    const e = new TypeError("Cannot read properties of null (reading 'write')");
    e.stack = e.name + ': ' + e.message +
      '\\n    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)';
    throw e;`);
  expect(closed.stderr).toContain('warned: database connection closed');
  expect(closed.status).toBe(0);
  const other = withGuard(`throw new TypeError("Cannot read properties of null (reading 'x')");`);
  expect(other.stderr).toContain("reading 'x'");
  expect(other.status).toBe(1);
}, 300_000);
