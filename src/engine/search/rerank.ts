import type { Reranker } from '../../core/ports.js';

/**
 * HTTP rerank client for the common `/rerank` shape served by TEI, vLLM, Jina and Cohere:
 * POST `{ model, query, documents, top_n }` answered by `{ results: [{ index,
 * relevance_score }] }`; TEI's bare array `[{ index, score }]` is accepted too. A base URL
 * not ending in `rerank` gets `/rerank` appended. Documents the server leaves out score
 * MISSING_SCORE (−100, they sort last).
 */
export interface HttpRerankerOptions {
  url: string;
  apiKey?: string | undefined;
  model?: string | undefined;
  timeoutMs?: number;
}

export class RerankError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RerankError';
  }
}

export class HttpReranker implements Reranker {
  private readonly url: string;

  constructor(private readonly opts: HttpRerankerOptions) {
    const u = opts.url.replace(/\/+$/, '');
    this.url = /rerank$/.test(u) ? u : `${u}/rerank`;
  }

  async rerank(query: string, documents: readonly string[]): Promise<number[]> {
    if (!documents.length) return [];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.apiKey) headers['authorization'] = `Bearer ${this.opts.apiKey}`;
    const body = {
      ...(this.opts.model ? { model: this.opts.model } : {}),
      query,
      documents,
      // TEI names the list `texts`.
      texts: documents,
      top_n: documents.length,
    };
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new RerankError(`rerank request failed: ${(err as Error).message}`, { cause: err });
    }
    if (!res.ok) throw new RerankError(`rerank service answered ${res.status}`);
    const json = (await res.json().catch(() => undefined)) as unknown;
    return parseRerank(json, documents.length);
  }
}

/** Score of a document the reranker left out (the spec's score for a failed rerank). */
export const MISSING_SCORE = -100;

/** Scores in document order from either response shape. */
export function parseRerank(json: unknown, count: number): number[] {
  const list = Array.isArray(json)
    ? json
    : json && typeof json === 'object' && Array.isArray((json as { results?: unknown }).results)
      ? (json as { results: unknown[] }).results
      : json && typeof json === 'object' && Array.isArray((json as { data?: unknown }).data)
        ? (json as { data: unknown[] }).data
        : undefined;
  if (!list) throw new RerankError('rerank response has no results');
  const scores = new Array<number>(count).fill(MISSING_SCORE);
  for (const r of list) {
    if (!r || typeof r !== 'object') continue;
    const { index, relevance_score, score } = r as {
      index?: unknown;
      relevance_score?: unknown;
      score?: unknown;
    };
    const s =
      typeof relevance_score === 'number' ? relevance_score : typeof score === 'number' ? score : undefined;
    if (
      typeof index === 'number' &&
      Number.isInteger(index) &&
      index >= 0 &&
      index < count &&
      s !== undefined
    )
      scores[index] = s;
  }
  return scores;
}
