/**
 * LoCoMo evidence-recall benchmark for engram search (not shipped).
 *
 *   npm run bench:locomo -- --data ../shared/data/locomo10.json [--split test|dev|all]
 *        [--limit N] [--methods keyword,vector,hybrid,agentic] [--top-k 30] [--json]
 *        [--message-weight W] [--fact-day] [--view-weight W] [--variants w/d/v,...]
 *        [--dump <file.jsonl>]
 *
 * Split (fixed, by index in the file): conversations 0-2 are the development split (the
 * only ones to look at or tune on), conversations 3-9 the test split. Figures are reported
 * for the test split unless `--split dev` (for tuning) or `--split all` is given.
 *
 * Each conversation is ingested through the real add + flush path of an embedded engram
 * (offline extractor and offline embedder; a fresh data dir under the OS temp dir): one
 * engram session per LoCoMo session, turn i of a session at its date-time + 30 s · i,
 * speakers as senders with role `user` and `sender_name`, an image's caption appended as
 * "[shares <caption>]". Every conversation lives in its own project.
 *
 * Every question of categories 1-4 (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop)
 * is asked as speaker A. Evidence recall at budget B, strict fit, in two forms of the same
 * search answer:
 *
 * - `<method>` (what recall puts into context): the answer packed into B tokens exactly as
 *   the MCP `recall` tool packs it (engine/search/context.ts: facts and turns ranked
 *   together, each unit whole or not at all, tokens = ceil(chars / 4)); the unit options
 *   (--message-weight, --fact-day, --view-weight) default to recall's own; `--variants`
 *   adds rows for other unit options of the same answers (message weight / fact day 0|1 /
 *   view weight, e.g. `1/1/0.9`), for choosing them on the development split;
 * - `<method> facts`: the atomic facts of the REST answer (its top_k best facts and each
 *   episode's best, engine/search/best-facts.ts) alone, best score first (ties: episode
 *   rank), taken while their text fits in B (the form measured before turns were searchable);
 * - `<method> facts in order`: the same facts in the order of the answer (episode by
 *   episode, each episode's facts best first), taken while their text fits in B (a REST
 *   client that reads the episodes as given).
 *
 * A question's evidence dia_id counts as covered when its message is among the sources of
 * a taken unit. Baseline: Okapi BM25 (k1 1.2, b 0.75, Postgres english lexemes) over the
 * raw turns of the conversation, `speaker: turn` taken while it fits in B, and the same
 * ranking rendered and packed as recall renders and packs turns (`raw-turn BM25 packed`).
 * The dataset is read from the path given, never copied. `--dump` writes one JSON line per
 * question and method (outside the repository: for looking at development-split misses):
 * the question, its evidence turns, the recall at each budget, the units packed into 300
 * tokens and every unit of the answer, with the turns they cover.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { SearchInput } from '../src/contract/search.js';
import type { Sql } from '../src/core/db.js';
import { createLogger } from '../src/core/log.js';
import { bestFacts } from '../src/engine/search/best-facts.js';
import {
  type ContextUnit,
  contextUnits,
  packContext,
  type UnitOptions,
  unitsFor,
} from '../src/engine/search/context.js';
import { SearchService, topKOf } from '../src/engine/search/service.js';
import { tokenCount } from '../src/engine/text.js';
import { VectorIndex } from '../src/engine/vector-index.js';
import { openEngram } from '../src/engram.js';
import { sessionTime } from './bench-scale/conversations.js';
import { percentile } from './percentile.js';

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    split: { type: 'string', default: 'test' },
    limit: { type: 'string' },
    methods: { type: 'string', default: 'keyword,vector,hybrid,agentic' },
    'top-k': { type: 'string', default: '30' },
    json: { type: 'boolean', default: false },
    'message-weight': { type: 'string' },
    'fact-day': { type: 'boolean' },
    'view-weight': { type: 'string' },
    variants: { type: 'string' },
    dump: { type: 'string' },
  },
});
if (!args.data) {
  console.error(
    'usage: npm run bench:locomo -- --data <locomo10.json> [--limit N] [--methods a,b] [--top-k K]',
  );
  process.exit(2);
}
/** Conversation indices of each split (see docs/search.md). */
export const SPLITS: Record<string, readonly number[]> = {
  dev: [0, 1, 2],
  test: [3, 4, 5, 6, 7, 8, 9],
  all: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
};
if (!SPLITS[args.split!]) {
  console.error(`--split must be one of ${Object.keys(SPLITS).join(', ')}`);
  process.exit(2);
}
const BUDGETS = [300, 1000, 2000] as const;
const CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};
const methods = args.methods!.split(',').map((m) => m.trim()) as (
  | 'keyword'
  | 'vector'
  | 'hybrid'
  | 'agentic'
)[];
const topK = Number(args['top-k']);
/** Unit options given on the command line, over recall's own for the method. */
const unitOptions = (method: string): UnitOptions => {
  const own = unitsFor({ method });
  return {
    messageWeight: Number(args['message-weight'] ?? own.messageWeight),
    factDay: args['fact-day'] ?? own.factDay,
    viewWeight: Number(args['view-weight'] ?? own.viewWeight),
  };
};
/** Further unit options measured on the same answers, by label. */
const variants: [string, UnitOptions][] = (args.variants ?? '')
  .split(',')
  .filter(Boolean)
  .map((v) => {
    const [w, d, view] = v.split('/').map(Number);
    return [v, { messageWeight: w ?? 1, factDay: d === 1, viewWeight: view ?? 0 }];
  });

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface Sample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}

/** "D1:3 ", "D:1:3", "D8:6; D9:17" -> ["D1:3"], ["D1:3"], ["D8:6", "D9:17"]. */
export function normaliseEvidence(list: readonly string[] = []): string[] {
  const out = new Set<string>();
  for (const raw of list)
    for (const m of raw.matchAll(/D\s*:?\s*(\d+)\s*:\s*(\d+)/g)) out.add(`D${Number(m[1])}:${Number(m[2])}`);
  return [...out];
}

const turnText = (t: Turn) => (t.blip_caption ? `${t.text} [shares ${t.blip_caption}]` : t.text);

/** recall sums per method -> category -> budget */
class Tally {
  sums = new Map<string, number[]>();
  counts = new Map<string, number>();
  add(key: string, recalls: number[]) {
    const s = this.sums.get(key) ?? BUDGETS.map(() => 0);
    for (const [i, r] of recalls.entries()) s[i]! += r;
    this.sums.set(key, s);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  mean(key: string): number[] {
    const n = this.counts.get(key) ?? 0;
    return (this.sums.get(key) ?? BUDGETS.map(() => 0)).map((x) => (n ? x / n : 0));
  }
}

/** Recall at each budget of units (best first, text, covered dia_ids) taken while each fits. */
function recallTaken(units: { text: string; covers: string[] }[], evidence: string[]): number[] {
  return BUDGETS.map((budget) => {
    let used = 0;
    const got = new Set<string>();
    for (const u of units) {
      const t = tokenCount(u.text);
      if (used + t > budget) break;
      used += t;
      for (const c of u.covers) got.add(c);
    }
    return evidence.filter((e) => got.has(e)).length / evidence.length;
  });
}

/** Recall at each budget of the units (best first) packed as recall packs them. */
function recallAt(
  units: ContextUnit[],
  evidence: string[],
  toDia: (id: string) => string | undefined,
): number[] {
  return BUDGETS.map((budget) => {
    const got = new Set<string>();
    for (const u of packContext(units, budget).units)
      for (const id of u.sources) {
        const dia = toDia(id);
        if (dia) got.add(dia);
      }
    return evidence.filter((e) => got.has(e)).length / evidence.length;
  });
}

async function main() {
  const all = JSON.parse(readFileSync(resolve(args.data!), 'utf8')) as Sample[];
  const samples = SPLITS[args.split!]!.map((i) => all[i])
    .filter((s): s is Sample => s !== undefined)
    .slice(0, args.limit ? Number(args.limit) : undefined);
  console.error(`split ${args.split}: ${samples.map((s) => s.sample_id).join(', ')}`);
  if (args.dump) writeFileSync(args.dump, '');
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const config = loadConfig({ ENGRAM_DATA_DIR: dir, ENGRAM_LOG_LEVEL: 'warn', ENGRAM_WORKERS: 'false' });
  const log = createLogger('warn');
  const engram = await openEngram(config, { command: 'bench', log, workers: false });
  const tally = new Tally();
  const latencies = new Map<string, number[]>(methods.map((m) => [m, []]));
  let ingestMs = 0;
  let turnsTotal = 0;
  try {
    const index = await VectorIndex.setup(engram.db, engram.embedder, log);
    const search = new SearchService({ db: engram.db, embedder: engram.embedder, log, vectorIndex: index });
    for (const s of samples) {
      const ctx = { tenantId: 'bench' };
      const scope = { app_id: 'default', project_id: s.sample_id.replace(/[^a-zA-Z0-9_.@+-]/g, '_') };
      const speakerA = String(s.conversation['speaker_a']);
      const diaToMsg = new Map<string, string>();
      const msgToDia = new Map<string, string>();
      const turns: { dia: string; text: string; day: string }[] = [];
      const t0 = performance.now();
      for (let n = 1; Array.isArray(s.conversation[`session_${n}`]); n++) {
        const list = s.conversation[`session_${n}`] as Turn[];
        const base = sessionTime(String(s.conversation[`session_${n}_date_time`]));
        const sessionId = `session_${n}`;
        const r = await engram.memory.add(ctx, {
          ...scope,
          session_id: sessionId,
          async_mode: false,
          messages: list.map((t, i) => ({
            sender_id: t.speaker.toLowerCase(),
            sender_name: t.speaker,
            role: 'user' as const,
            content: turnText(t),
            timestamp: base + i * 30_000,
          })),
        } as Parameters<typeof engram.memory.add>[1]);
        r.data.message_ids?.forEach((id, i) => {
          const dia = normaliseEvidence([list[i]!.dia_id])[0]!;
          diaToMsg.set(dia, id);
          msgToDia.set(id, dia);
          turns.push({
            dia,
            text: `${list[i]!.speaker}: ${turnText(list[i]!)}`,
            day: new Date(base + i * 30_000).toISOString().slice(0, 10),
          });
        });
        await engram.memory.flush(ctx, { ...scope, session_id: sessionId } as Parameters<
          typeof engram.memory.flush
        >[1]);
      }
      ingestMs += performance.now() - t0;
      turnsTotal += turns.length;
      const baseline = await Bm25.build(
        engram.db,
        turns.map((t) => t.text),
      );
      for (const qa of s.qa) {
        if (!(qa.category >= 1 && qa.category <= 4)) continue;
        const evidence = normaliseEvidence(qa.evidence).filter((e) => diaToMsg.has(e));
        if (!evidence.length) continue;
        const ranked = await baseline.rank(qa.question);
        const bm25 = recallTaken(
          ranked.map((i) => ({ text: turns[i]!.text, covers: [turns[i]!.dia] })),
          evidence,
        );
        tally.add(`baseline|${qa.category}`, bm25);
        tally.add('baseline|all', bm25);
        const base = recallAt(
          ranked.map((i, rank) => ({
            kind: 'message' as const,
            id: turns[i]!.dia,
            text: `- [${turns[i]!.day}] ${turns[i]!.text}`,
            score: -rank,
            sources: [turns[i]!.dia],
          })),
          evidence,
          (dia) => dia,
        );
        tally.add(`baseline packed|${qa.category}`, base);
        tally.add('baseline packed|all', base);
        for (const method of methods) {
          const started = performance.now();
          const r = await search.search(
            ctx,
            SearchInput.parse({
              ...scope,
              user_id: speakerA.toLowerCase(),
              query: qa.question,
              method,
              top_k: topK,
            }),
            // every fact, as MCP recall asks; the REST answer's facts are cut from it below
            { allFacts: true },
          );
          latencies.get(method)!.push(performance.now() - started);
          const units = contextUnits(r, unitOptions(method));
          const rec = recallAt(units, evidence, (id) => msgToDia.get(id));
          const described = (u: ContextUnit) => ({
            kind: u.kind,
            score: Number(u.score.toFixed(4)),
            text: u.text,
            covers: u.sources.map((id) => msgToDia.get(id)).filter(Boolean),
          });
          if (args.dump)
            appendFileSync(
              args.dump,
              `${JSON.stringify({
                conversation: s.sample_id,
                method,
                category: qa.category,
                question: qa.question,
                evidence: evidence.map((e) => `${e} ${turns.find((t) => t.dia === e)?.text ?? ''}`),
                recall: rec,
                packed: packContext(units, BUDGETS[0]).units.map(described),
                units: units.map(described),
              })}\n`,
            );
          tally.add(`${method}|${qa.category}`, rec);
          tally.add(`${method}|all`, rec);
          for (const [label, opts] of variants) {
            const v = recallAt(contextUnits(r, opts), evidence, (id) => msgToDia.get(id));
            tally.add(`${method} ${label}|${qa.category}`, v);
            tally.add(`${method} ${label}|all`, v);
          }
          // The facts of the REST answer: the same episodes as the service cuts them.
          const answerFacts = bestFacts(r.episodes, topKOf(topK)).flatMap((e, rank) =>
            e.atomic_facts.map((f, pos) => ({
              f,
              rank,
              pos,
              text: f.content,
              covers: f.source_message_ids.map((id) => msgToDia.get(id)).filter((d): d is string => !!d),
            })),
          );
          const facts = recallTaken(
            [...answerFacts].sort((a, b) => b.f.score - a.f.score || a.rank - b.rank || a.pos - b.pos),
            evidence,
          );
          tally.add(`${method} facts|${qa.category}`, facts);
          tally.add(`${method} facts|all`, facts);
          const inOrder = recallTaken(answerFacts, evidence);
          tally.add(`${method} facts in order|${qa.category}`, inOrder);
          tally.add(`${method} facts in order|all`, inOrder);
        }
      }
      console.error(`${s.sample_id}: ${turns.length} turns ingested`);
    }
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
  report(tally, latencies, ingestMs, turnsTotal);
}

function report(tally: Tally, latencies: Map<string, number[]>, ingestMs: number, turns: number) {
  const rows: Record<string, unknown>[] = [];
  const fmt = (x: number) => x.toFixed(3);
  const cats = ['all', '1', '2', '3', '4'];
  const name = (c: string) => (c === 'all' ? 'overall' : `${c} ${CATEGORIES[Number(c)]}`);
  const lines = [
    `split: ${args.split} (${SPLITS[args.split!]!.join(', ')}), top_k ${topK}, units ${JSON.stringify(Object.fromEntries(methods.map((m) => [m, unitOptions(m)])))}`,
    '',
  ];
  lines.push(`| method | category | n | ${BUDGETS.map((b) => `R@${b}`).join(' | ')} | Δ vs baseline |`);
  lines.push(`|---|---|---|${BUDGETS.map(() => '---').join('|')}|---|`);
  for (const m of [
    'baseline',
    'baseline packed',
    ...methods.flatMap((x) => [
      `${x} facts`,
      `${x} facts in order`,
      x,
      ...variants.map(([l]) => `${x} ${l}`),
    ]),
  ])
    for (const c of cats) {
      const key = `${m}|${c}`;
      const r = tally.mean(key);
      const b = tally.mean(`baseline|${c}`);
      const delta = m.startsWith('baseline')
        ? ''
        : r.map((x, i) => `${x - b[i]! >= 0 ? '+' : ''}${fmt(x - b[i]!)}`).join(' / ');
      lines.push(
        `| ${m.replace('baseline', 'raw-turn BM25')} | ${name(c)} | ${tally.counts.get(key) ?? 0} | ${r.map(fmt).join(' | ')} | ${delta} |`,
      );
      rows.push({ method: m, category: c, n: tally.counts.get(key) ?? 0, recall: r });
    }
  lines.push('');
  lines.push(
    `ingest: ${turns} turns in ${(ingestMs / 1000).toFixed(1)} s (${((turns / ingestMs) * 1000).toFixed(0)} turns/s)`,
  );
  for (const [m, xs] of latencies)
    lines.push(
      `search ${m}: p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms (${xs.length} queries)`,
    );
  if (args.json)
    console.log(
      JSON.stringify({
        units: Object.fromEntries(methods.map((m) => [m, unitOptions(m)])),
        rows,
        ingestMs,
        turns,
        latencies: Object.fromEntries(latencies),
      }),
    );
  else console.log(lines.join('\n'));
}

/** The baseline: Okapi BM25 over raw turns, analysed by Postgres' english configuration. */
class Bm25 {
  private constructor(
    private readonly db: Sql,
    private readonly docs: Map<string, number>[],
    private readonly df: Map<string, number>,
    private readonly avgdl: number,
  ) {}

  static async build(db: Sql, texts: string[]): Promise<Bm25> {
    const docs: Map<string, number>[] = [];
    const df = new Map<string, number>();
    for (const t of texts) {
      const rows = await db.query<{ lexeme: string; tf: number }>(
        `SELECT lexeme, coalesce(array_length(positions, 1), 1)::int AS tf FROM unnest(to_tsvector('english', $1))`,
        [t],
      );
      const m = new Map(rows.map((r) => [r.lexeme, Number(r.tf)]));
      docs.push(m);
      for (const k of m.keys()) df.set(k, (df.get(k) ?? 0) + 1);
    }
    const total = docs.reduce((s, d) => s + [...d.values()].reduce((a, b) => a + b, 0), 0);
    return new Bm25(db, docs, df, total / Math.max(1, docs.length));
  }

  async rank(query: string): Promise<number[]> {
    const terms = (
      await this.db.query<{ lexeme: string }>(`SELECT lexeme FROM unnest(to_tsvector('english', $1))`, [
        query,
      ])
    ).map((r) => r.lexeme);
    const n = this.docs.length;
    const scored = this.docs.map((d, i) => {
      const dl = [...d.values()].reduce((a, b) => a + b, 0);
      let s = 0;
      for (const t of terms) {
        const tf = d.get(t);
        if (!tf) continue;
        const df = this.df.get(t) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * tf * 2.2) / (tf + 1.2 * (1 - 0.75 + (0.75 * dl) / this.avgdl));
      }
      return { i, s };
    });
    return scored
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .map((x) => x.i);
  }
}

await main();
