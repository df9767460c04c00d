/**
 * Would dynamic pruning make the keyword route exact and cheap on a kept store? (not shipped)
 *
 *   npm run bench:scale:pruning -- --data <locomo10.json> --url <database url>
 *        [--owner owner-0] [--tenant bench] [--pool 50] [--depth 1000]
 *
 * For each question (every 37th LoCoMo question, as bench:scale:profile asks) and each kind
 * (episodes, facts, turns) of the owner: the question's lexemes, their df and idf from
 * search_counts, and BM25 over every posting of those terms (the exact scores), whose
 * `pool`-th best is θ, the score a document must reach to be a keyword candidate. Given θ in
 * advance (the best case for pruning; a search would have to find it first), it prints, per
 * question on average:
 *
 * - the postings in the question's lists, and those read today (each list to `depth`);
 * - MaxScore: terms sorted by upper bound (idf · the list's best impact · max(1, avgdl /
 *   reference length), which bounds a posting's score at the owner's mean length, see
 *   migration 0014); the smallest terms whose bounds add up to less than θ are
 *   non-essential; the essential lists are read whole and the other terms looked up for each
 *   of their documents (lookups = essential postings · non-essential terms);
 * - a threshold over impact order (Fagin's TA on the essential lists): each essential list
 *   read while its frontier can still matter, the budget θ minus the non-essential bounds
 *   shared in proportion to the lists' bounds; the postings read and the distinct documents
 *   they hold (each to be scored).
 *
 * Read-only: nothing is written to the store.
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { B, K1, REFERENCE_LENGTH } from '../../src/store/migrations/0014_search_postings.js';
import { MESSAGES } from '../../src/store/migrations/0015_message_search.js';
import { probeQuestions } from './conversations.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    url: { type: 'string' },
    owner: { type: 'string', default: 'owner-0' },
    tenant: { type: 'string', default: 'bench' },
    pool: { type: 'string', default: '50' },
    depth: { type: 'string', default: '1000' },
  },
});
if (!args.data || !args.url) {
  console.error('usage: npm run bench:scale:pruning -- --data <locomo10.json> --url <database url>');
  process.exit(2);
}
const POOL = Number(args.pool);
const DEPTH = Number(args.depth);
const REFERENCE: Record<string, number> = { ...REFERENCE_LENGTH, message: MESSAGES.reference };

const questions = probeQuestions(args.data);
const sql = postgres(args.url, { max: 2, onnotice: () => {} });

interface Term {
  term: string;
  df: number;
  idf: number;
  /** Upper bound of the term's score in any document. */
  ub: number;
}

const key = (kind: string) =>
  sql`tenant_id = ${args.tenant!} AND app_id = 'default' AND project_id = 'default' AND kind = ${kind} AND owner_id = ${args.owner!}`;

async function measure(kind: string) {
  const [st] = await sql<{ n: number; avgdl: number }[]>`
    SELECT sum(docs)::float8 AS n, sum(len)::float8 / greatest(sum(docs), 1) AS avgdl
    FROM search_counts WHERE ${key(kind)} AND term = ''`;
  if (!st?.n) return undefined;
  const scale = Math.max(1, st.avgdl / REFERENCE[kind]!);
  const sum = { all: 0, today: 0, essentialLists: 0, essential: 0, lookups: 0, ta: 0, taDocs: 0 };
  for (const question of questions) {
    const lexemes = (
      await sql<{ lexeme: string }[]>`SELECT lexeme FROM unnest(to_tsvector('english', ${question}))`
    ).map((r) => r.lexeme);
    const terms: Term[] = [];
    for (const term of lexemes) {
      const [d] = await sql<{ df: number }[]>`
        SELECT coalesce(sum(docs), 0)::float8 AS df FROM search_counts WHERE ${key(kind)} AND term = ${term}`;
      const df = d?.df ?? 0;
      const idf = Math.log(1 + (st.n - df + 0.5) / (df + 0.5));
      const [m] = await sql<{ impact: number }[]>`
        SELECT impact FROM search_postings WHERE ${key(kind)} AND term = ${term} ORDER BY impact DESC LIMIT 1`;
      terms.push({ term, df, idf, ub: idf * (m?.impact ?? 0) * scale });
    }
    const exact = await sql<{ score: number }[]>`
      WITH w AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(terms)}::text::jsonb) AS w(term text, idf float8))
      SELECT sum(w.idf * s.tf * ${K1 + 1}::float8 / (s.tf + ${K1}::float8 * (${1 - B}::float8 + ${B}::float8 * s.dl / ${st.avgdl}::float8))) AS score
      FROM w JOIN search_postings s ON ${key(kind)} AND s.term = w.term
      GROUP BY s.doc_id ORDER BY 1 DESC LIMIT ${POOL}`;
    const theta = exact.length >= POOL ? exact[POOL - 1]!.score : 0;
    const byBound = [...terms].sort((a, b) => a.ub - b.ub);
    let bounds = 0;
    let cut = 0;
    while (cut < byBound.length && bounds + byBound[cut]!.ub < theta) bounds += byBound[cut++]!.ub;
    const essential = byBound.slice(cut);
    const essentialBound = essential.reduce((s, t) => s + t.ub, 0);
    sum.all += terms.reduce((s, t) => s + t.df, 0);
    sum.today += terms.reduce((s, t) => s + Math.min(t.df, DEPTH), 0);
    sum.essentialLists += essential.length;
    const essentialPostings = essential.reduce((s, t) => s + t.df, 0);
    sum.essential += essentialPostings;
    sum.lookups += essentialPostings * cut;
    const docs = new Set<string>();
    for (const t of essential) {
      // Read while idf · impact · scale may still exceed this list's share of the budget.
      const floor = ((theta - bounds) * (t.ub / essentialBound)) / (t.idf * scale);
      const rows = await sql<{ doc_id: string }[]>`
        SELECT doc_id FROM search_postings WHERE ${key(kind)} AND term = ${t.term} AND impact >= ${floor}`;
      sum.ta += rows.length;
      for (const r of rows) docs.add(r.doc_id);
    }
    sum.taDocs += docs.size;
  }
  const per = (x: number) => Math.round(x / questions.length).toLocaleString('en-US');
  return {
    avgdl: st.avgdl,
    row: [
      per(sum.all),
      per(sum.today),
      `${(sum.essentialLists / questions.length).toFixed(2)} / ${per(sum.essential)}`,
      per(sum.lookups),
      `${per(sum.ta)} / ${per(sum.taDocs)}`,
    ],
  };
}

const kinds: [string, string][] = [
  ['episode', 'episodes'],
  ['fact', 'facts'],
  ['message', 'turns'],
];
const columns: string[][] = [];
for (const [kind, name] of kinds) {
  const m = await measure(kind);
  if (!m) continue;
  console.error(`${name}: mean length ${m.avgdl.toFixed(1)} lexemes`);
  columns.push([name, ...m.row]);
}
const labels = [
  'per question, mean',
  "postings in the question's lists",
  `read today (depth ${DEPTH.toLocaleString('en-US')})`,
  'MaxScore: essential lists / their postings',
  'MaxScore: lookups of the other terms',
  'threshold over impact order: postings / documents to score',
];
console.log(`${questions.length} questions, owner ${args.owner}, θ = the ${POOL}th best exact score\n`);
labels.forEach((label, i) => {
  console.log(`| ${[label, ...columns.map((c) => c[i])].join(' | ')} |`);
  if (i === 0) console.log(`|${'---|'.repeat(columns.length + 1)}`);
});
await sql.end();
