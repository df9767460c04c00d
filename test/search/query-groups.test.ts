import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db.js';
import {
  type PreparedQuery,
  type Route,
  rankEach,
  rankRows,
  scoreChildren,
  scoreIds,
} from '../../src/engine/search/hybrid.js';
import { queryLexemes } from '../../src/engine/search/keyword.js';
import { episodeTarget, factTarget, type SearchScope } from '../../src/engine/search/scope.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, recording, seedEpisode, seedKites } from './seed.js';

/**
 * Queries of one search with the same embedding (a question and its bridged form) are
 * scored by one statement per target (nearest rows and postings read once), and every
 * query still gets exactly the hits and scores it gets when scored alone: ranked from the
 * postings (also when a term's list is longer than the depth read), by id, and by parent.
 */
const scope = (ownerId: string): SearchScope => ({
  tenantId: 'tenant-a',
  appId: 'default',
  projectId: 'default',
  ownerId,
  filters: undefined,
});

/** The Db with a count of its statements and of those reading nearest rows (vector.ts nearest()). */
function counting(db: Db): { db: Db; statements: () => number; nearestReads: () => number } {
  const r = recording(db);
  return {
    db: r.db,
    statements: () => r.sent.length,
    nearestReads: () => r.sent.filter((s) => s.text.includes(' AS d FROM ')).length,
  };
}

/**
 * Each query's rows in id order, scores to 9 decimals: a sum of BM25 terms may add in
 * another order when the rows are sorted for grouping (the last bits of a float).
 */
const byId = (rows: { id: string; score: number }[][]) =>
  rows.map((r) =>
    [...r].sort((a, b) => (a.id < b.id ? -1 : 1)).map((x) => ({ ...x, score: Number(x.score.toFixed(9)) })),
  );
const rounded = (m: Map<string, number> | undefined) =>
  new Map([...(m ?? [])].map(([id, s]) => [id, Number(s.toFixed(9))]));

describe.each(DRIVERS)('queries scored together [%s]', (driver) => {
  let f: Fixture;
  const prepared = async (text: string, bridge: string): Promise<PreparedQuery[]> => {
    const vector = (await f.embedder.embed([text]))[0]!;
    const terms = await queryLexemes(f.db, text);
    const added = await queryLexemes(f.db, bridge);
    return [
      { text, terms, vector },
      { text, terms: [...terms, ...added], vector, own: terms },
    ];
  };

  beforeAll(async () => {
    f = await openFixture(driver);
    const topics = [
      'sailing a dinghy',
      'repairing a kayak',
      'a canoe trip',
      'rowing at dawn',
      'a ferry ride',
    ];
    for (const [i, subject] of topics.entries())
      await seedEpisode(f, {
        owners: ['ned'],
        subject,
        summary: `Ned went ${subject} with friends`,
        facts: [`Ned enjoyed ${subject}.`, `The weather was ${i % 2 ? 'calm' : 'windy'}.`],
      });
  });
  afterAll(async () => {
    await f?.database.drop();
  });

  it('one statement per embedding, each query ranked as alone, for episodes and facts', async () => {
    const other: PreparedQuery = {
      text: 'calm',
      terms: ['calm'],
      vector: (await f.embedder.embed(['calm']))[0]!,
    };
    const queries = [...(await prepared('boat trip on windy water', 'kayak canoe')), other];
    for (const route of ['hybrid', 'keyword'] as Route[])
      for (const target of [episodeTarget, factTarget]) {
        const c = counting(f.db);
        const together = await rankEach(
          { db: c.db, index: f.index },
          () => target(scope('ned')),
          route,
          queries,
          3,
        );
        // One statement for the two queries of one embedding, one for the third.
        expect(c.statements()).toBe(2);
        expect(c.nearestReads()).toBe(route === 'hybrid' ? 2 : 0);
        const alone = await Promise.all(
          queries.map((q) => rankRows({ db: f.db, index: f.index }, target(scope('ned')), route, q, 3)),
        );
        expect(byId(together)).toEqual(byId(alone));
      }
    // Among the facts, the bridged query's candidates come from both halves (3 + 3, overlapping).
    const facts = await rankEach(
      { db: f.db, index: f.index },
      () => factTarget(scope('ned')),
      'hybrid',
      queries,
      3,
    );
    expect(facts[1]!.length).toBeGreaterThan(3);
    expect(facts[1]!.length).not.toBe(facts[0]!.length);
  });

  it('score by id and by parent as alone', async () => {
    const queries = await prepared('windy canoe', 'dinghy');
    const d = { db: f.db, index: f.index };
    const episodes = await rankEach(d, () => episodeTarget(scope('ned')), 'hybrid', queries, 5);
    const ids = [...new Set(episodes.flat().map((r) => r.id))];
    expect(ids.length).toBeGreaterThan(1);
    for (const route of ['hybrid', 'keyword'] as Route[]) {
      const c = counting(f.db);
      const [together, children] = await Promise.all([
        scoreIds({ ...d, db: c.db }, () => episodeTarget(scope('ned')), route, queries, ids),
        scoreChildren({ ...d, db: c.db }, () => factTarget(scope('ned')), route, queries, ids),
      ]);
      expect(c.statements()).toBe(2);
      for (const [i, q] of queries.entries()) {
        const [alone] = await scoreIds(d, () => episodeTarget(scope('ned')), route, [q], ids);
        const [aloneChildren] = await scoreChildren(d, () => factTarget(scope('ned')), route, [q], ids);
        expect(rounded(together[i])).toEqual(rounded(alone));
        expect(rounded(children[i])).toEqual(rounded(aloneChildren));
        expect(children[i]!.size).toBe(2 * ids.length);
      }
      // The bridged form scores a document holding only a bridge term; the question does not.
      const onlyBridge = [...together[1]!].filter(([id, s]) => s > 0 && together[0]!.get(id) === 0);
      if (route === 'keyword') expect(onlyBridge.length).toBeGreaterThan(0);
    }
  });

  it('rank as alone when a term list is longer than the depth read', async () => {
    // More facts holding "kite" than one list read reaches; "string" in every 11th.
    await seedKites(f, 'kim');
    const d = { db: f.db, index: f.index };
    const plain = await queryLexemes(f.db, 'string pier');
    const bridged = await queryLexemes(f.db, 'string pier kite');
    for (const [question, bridge] of [
      [plain, bridged],
      [bridged, await queryLexemes(f.db, 'string pier kite snapped')],
    ] as const) {
      const queries: PreparedQuery[] = [
        { text: 'q', terms: question },
        { text: 'q', terms: bridge, own: question },
      ];
      const c = counting(f.db);
      const together = await rankEach(
        { ...d, db: c.db },
        () => factTarget(scope('kim')),
        'keyword',
        queries,
        50,
      );
      expect(c.statements()).toBe(1);
      const alone = await Promise.all(
        queries.map((q) => rankRows(d, factTarget(scope('kim')), 'keyword', q, 50)),
      );
      expect(together[0]!.length).toBe(50);
      expect(byId(together)).toEqual(byId(alone));
    }
  });
});
