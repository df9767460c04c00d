import type { Embedder } from '../../src/core/ports.js';

/**
 * A tiny deterministic embedder for tests: a signed hashed bag of crudely stemmed words,
 * L2-normalised. Texts sharing words are close in cosine; no model, no network.
 */
export class HashEmbedder implements Embedder {
  readonly id: string;
  readonly calls: string[][] = [];
  constructor(readonly dimensions = 64) {
    this.id = `test:hash-${dimensions}`;
  }

  async embed(texts: readonly string[]): Promise<number[][]> {
    this.calls.push([...texts]);
    return texts.map((t) => hashVector(t, this.dimensions));
  }
}

const STOP = new Set(
  'a an the and or of to in on at for with is are was were be it i you he she we they my what when where who did do does how'.split(
    ' ',
  ),
);

export function hashVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOP.has(raw)) continue;
    const w = raw.replace(/(ing|ed|es|s)$/, '');
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    const idx = (h >>> 0) % dims;
    v[idx]! += h & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...v);
  if (norm === 0) {
    v[0] = 1;
    return v;
  }
  return v.map((x) => x / norm);
}
