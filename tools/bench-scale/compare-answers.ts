/**
 * How close one version's search answers are to a reference's (not shipped): two files
 * written by `bench:scale:profile -- --answers <file>` on the same kept store, e.g. the
 * reference with `ENGRAM_KEYWORD_DEPTH=100000000` (every posting read: exact BM25) and a
 * version under test.
 *
 *   npm run bench:scale:compare -- <reference.jsonl> <other.jsonl>
 *
 * Per method and kind (episodes, their facts, messages), over the questions both files
 * answer: the share of the reference's top-10 scores that the other answer also has (as a
 * multiset, to 1e-4: the bench's corpus repeats its episodes, so equal scores belong to
 * interchangeable documents and ids say nothing), how often its best score is the
 * reference's, and in how many answers all ten are.
 */
import { readFileSync } from 'node:fs';

interface Answer {
  method: string;
  query: string;
  hits: Record<string, string[]>;
}

const [refPath, otherPath] = process.argv.slice(2);
if (!refPath || !otherPath) {
  console.error('usage: compare-answers <reference.jsonl> <other.jsonl>');
  process.exit(2);
}

const load = (path: string) =>
  new Map(
    readFileSync(path, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Answer)
      .map((a) => [`${a.method}\u0000${a.query}`, a] as const),
  );

/** Top-10 scores of a kind: profile.ts writes an episode as "id score" and each of its facts as "  id score". */
const top = (list: readonly string[] | undefined, facts: boolean) =>
  (list ?? [])
    .filter((s) => s.startsWith('  ') === facts)
    .map((s) => Number(s.trim().split(' ')[1]))
    .sort((a, b) => b - a)
    .slice(0, 10);

const KINDS = [
  ['episodes', 'episodes', false],
  ['facts', 'episodes', true],
  ['messages', 'messages', false],
] as const;

const ref = load(refPath);
const other = load(otherPath);
const rows = new Map<string, { n: number; share: number; best: number; all: number }>();
for (const [key, a] of ref) {
  const b = other.get(key);
  if (!b) continue;
  for (const [kind, field, facts] of KINDS) {
    const want = top(a.hits[field], facts);
    if (!want.length) continue;
    const got = top(b.hits[field], facts);
    const left = [...got];
    let found = 0;
    for (const s of want) {
      const i = left.findIndex((t) => Math.abs(t - s) < 1e-4);
      if (i >= 0) {
        found++;
        left.splice(i, 1);
      }
    }
    const row = rows.get(`${a.method} ${kind}`) ?? { n: 0, share: 0, best: 0, all: 0 };
    row.n++;
    row.share += found / want.length;
    row.best += got.length && Math.abs(got[0]! - want[0]!) < 1e-4 ? 1 : 0;
    row.all += found === want.length && got.length === want.length ? 1 : 0;
    rows.set(`${a.method} ${kind}`, row);
  }
}
console.log(
  '| method | kind | answers | share of the top-10 scores | best score the same | all ten the same |',
);
console.log('|---|---|---|---|---|---|');
for (const [key, r] of rows) {
  const [method, kind] = key.split(' ');
  console.log(
    `| ${method} | ${kind} | ${r.n} | ${(r.share / r.n).toFixed(3)} | ${(r.best / r.n).toFixed(3)} | ${r.all} |`,
  );
}
