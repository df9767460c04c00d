import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vectorText } from '../../src/engine/search/vector.js';
import { LocalEmbedder } from '../../src/providers/embeddings/local.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';

/** A seeded stream of doubles in [0, 1) of 53 random bits (mulberry32), so a failure can be replayed. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const u32 = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return () => (u32() * 2 ** 21 + (u32() >>> 11)) / 2 ** 53;
}

/** Vectors of every kind a component takes: an embedder's, uniform, and over a wide range of magnitudes. */
async function vectors(): Promise<number[][]> {
  const embedded = await new LocalEmbedder().embed([
    'Ines rowed across the reservoir at dawn with her cousin Pablo.',
    'The bakery on Quay Street sells rye bread on Thursdays.',
  ]);
  const next = seeded(20261129);
  const uniform = Array.from({ length: 4 }, () => Array.from({ length: 64 }, () => next() * 2 - 1));
  const wide = Array.from({ length: 4 }, () =>
    Array.from({ length: 64 }, () => (next() < 0.5 ? -1 : 1) * next() * 10 ** Math.floor(next() * 60 - 30)),
  );
  const edges = [[0, 1, -1, 0.1, 1 / 3, 2 ** -126, 2 ** -140, 3.4e38, 123456789, 1e-7, 0.5]];
  return [...embedded, ...uniform, ...wide, ...edges];
}

/** Components halfway between two single-precision values: a vector column's float4 is the even one. */
const halfway = [1 + 2 ** -24, 1 + 3 * 2 ** -24, -(0.5 + 2 ** -25), 2 ** -100 * (1 + 2 ** -24)];

describe.each(DRIVERS)('vectors as written to the store [%s]', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(driver);
    await t.db.query('CREATE EXTENSION IF NOT EXISTS vector');
  });
  afterAll(() => t.drop());

  it('keep each component as its nearest single-precision value, ties to even', async () => {
    for (const v of [...(await vectors()), halfway]) {
      const [row] = await t.db.query<{ a: number[] }>('SELECT ($1::vector)::real[] AS a', [vectorText(v)]);
      expect(row!.a.map((x) => Math.fround(x))).toEqual(v.map((x) => Math.fround(x)));
    }
  });

  it('store the vector a double written in full gives, no component being halfway', async () => {
    for (const v of await vectors()) {
      const [row] = await t.db.query<{ same: boolean }>('SELECT $1::vector = $2::vector AS same', [
        vectorText(v),
        `[${v.join(',')}]`,
      ]);
      expect(row!.same).toBe(true);
    }
  });

  it('write no more digits than single precision keeps (9 significant)', async () => {
    for (const v of await vectors()) {
      const parts = vectorText(v).slice(1, -1).split(',');
      expect(parts).toHaveLength(v.length);
      for (const p of parts) expect(p.replace(/^-?0\.0*|e.*$|[-.]/g, '').length).toBeLessThanOrEqual(9);
    }
  });
});
