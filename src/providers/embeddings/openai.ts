import OpenAI, { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import type { Embedder } from '../../core/ports.js';
import { EmbeddingError } from './errors.js';

/**
 * Embeddings from any OpenAI-compatible `POST /embeddings` endpoint (OpenAI, Azure-style
 * proxies, Ollama, vLLM, LM Studio, TEI...).
 *
 * Dimensions. The port wants `dimensions` synchronously, but a server only tells it with its
 * first reply. They are known, in order of precedence, from:
 *   1. `dimensions` in the options (ENGRAM_EMBEDDING_DIMENSIONS) — also sent to the server as
 *      the `dimensions` request parameter, which text-embedding-3 models honour by shortening;
 *   2. the known size of a few OpenAI models (text-embedding-3-small: 1536, ...);
 *   3. otherwise, the first reply: `init()` probes with one short input (the composition root
 *      awaits it at start), and any `embed` learns it too. Reading `dimensions` before that
 *      throws an EmbeddingError that says to call `init()` or set ENGRAM_EMBEDDING_DIMENSIONS.
 * Every reply is then checked: a vector of another length fails loudly (EmbeddingError) rather
 * than landing in a pgvector column of the wrong size.
 *
 * Requests carry at most `batchSize` inputs (default 96), sent one batch after another; the
 * vectors come back in input order whatever order the server lists them in. Transient failures
 * (connection errors, timeouts, 408, 409, 429, 5xx) are retried `maxRetries` times with
 * exponential backoff and jitter, honouring Retry-After up to `maxBackoffMs`. Output is
 * L2-normalised (OpenAI's already is; other servers' often is not).
 */
export interface OpenAIEmbedderOptions {
  baseURL: string;
  /** Sent as a bearer token; servers that need none (Ollama) accept any. */
  apiKey?: string | undefined;
  model: string;
  /** Requested size; sent as `dimensions` and enforced on replies. */
  dimensions?: number | undefined;
  /** Inputs per request (default 96). */
  batchSize?: number;
  /** Retries per request after the first attempt (default 3). */
  maxRetries?: number;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
  /** First backoff delay; doubles each retry, with jitter (default 500 ms). */
  retryBaseMs?: number;
  /** Cap on one backoff delay, Retry-After included (default 20 s). */
  maxBackoffMs?: number;
  /** Inputs are cut to this many characters: endpoints reject over-long inputs (default 8000). */
  maxInputChars?: number;
}

/** Native sizes of well-known OpenAI embedding models. */
export const KNOWN_DIMENSIONS: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  private dims: number | undefined;
  private readonly requested: number | undefined;
  private readonly client: OpenAI;
  private readonly batchSize: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly maxBackoffMs: number;
  private readonly maxInputChars: number;

  constructor(options: OpenAIEmbedderOptions) {
    this.model = options.model;
    this.requested = options.dimensions;
    this.dims = options.dimensions ?? KNOWN_DIMENSIONS[options.model];
    this.id = `openai:${options.model}${options.dimensions ? `@${options.dimensions}` : ''}`;
    this.batchSize = Math.max(1, options.batchSize ?? 96);
    this.maxRetries = Math.max(0, options.maxRetries ?? 3);
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 20_000;
    this.maxInputChars = options.maxInputChars ?? 8000;
    this.client = new OpenAI({
      baseURL: options.baseURL,
      // Never fall back to OPENAI_* environment variables: config is the only source.
      apiKey: options.apiKey || 'none',
      organization: null,
      project: null,
      timeout: options.timeoutMs ?? 30_000,
      maxRetries: 0, // retries are ours, so they are bounded and observable in one place
    });
  }

  get dimensions(): number {
    if (this.dims === undefined) {
      throw new EmbeddingError(
        `embedding dimensions of model ${this.model} are not known yet: call init() first or set ENGRAM_EMBEDDING_DIMENSIONS`,
        false,
      );
    }
    return this.dims;
  }

  /** Learns the dimensions with one request when neither config nor the model name gives them. */
  async init(): Promise<void> {
    if (this.dims === undefined) await this.embed(['dimension probe']);
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      const batch = texts.slice(i, i + this.batchSize).map((t) => this.prepare(t));
      out.push(...(await this.request(batch)));
    }
    return out;
  }

  /** Endpoints reject empty and over-long inputs. */
  private prepare(text: string): string {
    let t = text;
    if (t.length > this.maxInputChars) {
      const cut = this.maxInputChars;
      const high = t.charCodeAt(cut - 1);
      t = t.slice(0, high >= 0xd800 && high <= 0xdbff ? cut - 1 : cut); // never split a surrogate pair
    }
    return t.trim() === '' ? ' ' : t;
  }

  private async request(input: string[]): Promise<number[][]> {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await this.client.embeddings.create({
          model: this.model,
          input,
          encoding_format: 'float',
          ...(this.requested ? { dimensions: this.requested } : {}),
        });
        return this.check(res, input.length);
      } catch (err) {
        if (err instanceof EmbeddingError) throw err;
        const retryable = isRetryable(err);
        if (!retryable || attempt >= this.maxRetries) {
          throw new EmbeddingError(
            `embeddings request to model ${this.model} failed${attempt > 0 ? ` after ${attempt + 1} attempts` : ''}: ${describe(err)}`,
            retryable,
            { cause: err },
          );
        }
        await sleep(this.backoff(attempt, err));
      }
    }
  }

  private check(res: OpenAI.CreateEmbeddingResponse, expected: number): number[][] {
    const data = Array.isArray(res?.data) ? [...res.data] : [];
    if (data.length !== expected) {
      throw new EmbeddingError(
        `embeddings from model ${this.model}: asked for ${expected} vectors, got ${data.length}`,
        false,
      );
    }
    data.sort((a, b) => a.index - b.index);
    return data.map((d) => {
      const v = Array.from(d.embedding as ArrayLike<number>);
      if (this.dims === undefined) this.dims = v.length;
      if (v.length !== this.dims) {
        throw new EmbeddingError(
          `embedding dimension mismatch: model ${this.model} returned ${v.length}-d vectors, expected ${this.dims}` +
            (this.requested ? ' (ENGRAM_EMBEDDING_DIMENSIONS)' : ''),
          false,
        );
      }
      return normalise(v, this.model);
    });
  }

  private backoff(attempt: number, err: unknown): number {
    const exp = this.retryBaseMs * 2 ** attempt;
    const jittered = exp / 2 + Math.random() * (exp / 2);
    const after = retryAfterMs(err);
    return Math.min(this.maxBackoffMs, Math.max(jittered, after ?? 0));
  }
}

function isRetryable(err: unknown): boolean {
  if (err instanceof APIUserAbortError) return false;
  if (err instanceof APIConnectionError) return true; // includes timeouts
  if (err instanceof APIError) {
    const s = err.status ?? 0;
    return s === 408 || s === 409 || s === 429 || s >= 500;
  }
  return false;
}

function retryAfterMs(err: unknown): number | undefined {
  if (!(err instanceof APIError) || !err.headers) return undefined;
  const ms = Number(err.headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const raw = err.headers.get('retry-after');
  if (!raw) return undefined;
  const s = Number(raw);
  if (Number.isFinite(s)) return s * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function describe(err: unknown): string {
  if (err instanceof APIError && err.status) {
    // The SDK's message already starts with the status ("400 input too long").
    return err.message.startsWith(String(err.status))
      ? `HTTP ${err.message}`
      : `HTTP ${err.status}: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

function normalise(v: number[], model: string): number[] {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n);
  if (!(n > 0) || !Number.isFinite(n)) {
    throw new EmbeddingError(`embeddings from model ${model}: zero or non-finite vector`, false);
  }
  return v.map((x) => x / n);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
