// Reads vitest's JSON report and prints per-driver counts, then the closing line CI reads.
import { readFileSync } from 'node:fs';

let report;
try {
  report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
const tests = report.testResults.flatMap((f) => f.assertionResults);
const count = (pred) => ({
  passed: tests.filter((t) => pred(t) && t.status === 'passed').length,
  failed: tests.filter((t) => pred(t) && t.status === 'failed').length,
});
for (const driver of ['pglite', 'postgres']) {
  const c = count((t) => t.fullName.includes(`[${driver}]`));
  console.log(`driver ${driver}: ${c.passed} passed, ${c.failed} failed`);
}
const other = count((t) => !/\[(pglite|postgres)\]/.test(t.fullName));
console.log(`driver-independent: ${other.passed} passed, ${other.failed} failed`);
const failedFiles = report.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
const all = count(() => true);
console.log(`${all.passed} passed, ${all.failed + failedFiles} failed`);
