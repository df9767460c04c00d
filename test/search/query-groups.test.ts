import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/core/db.js';
import { rankEpisodes } from '../../src/engine/search/episodes.js';
import {
  mergeQueries,
  type PreparedQuery,
  type Route,
  rankEach,
  rankEachWithParents,
  rankRows,
  scoreChildren,
  scoreIds,
  scoreMap,
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
const scope = (ownerId: string, filters?: SearchScope['filters']): SearchScope => ({
  tenantId: 'tenant-a',
  appId: 'default',
  projectId: 'default',
  ownerId,
  filters,
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

  it("facts ranked with their episodes' own scores, read in the facts' statement as scoreIds reads them", async () => {
    const other: PreparedQuery = {
      text: 'calm',
      terms: ['calm'],
      vector: (await f.embedder.embed(['calm']))[0]!,
    };
    const queries = [...(await prepared('windy canoe', 'dinghy')), other];
    const d = { db: f.db, index: f.index };
    for (const filters of [undefined, { session_id: 's1' }])
      for (const route of ['hybrid', 'keyword', 'vector'] as Route[]) {
        const c = counting(f.db);
        const ranked = await rankEachWithParents(
          { ...d, db: c.db },
          () => factTarget(scope('ned', filters)),
          () => episodeTarget(scope('ned', filters)),
          route,
          queries,
          3,
        );
        // One statement per embedding, as rankEach, with the same hits.
        expect(c.statements()).toBe(2);
        const hits = await rankEach(d, () => factTarget(scope('ned', filters)), route, queries, 3);
        expect(byId(ranked.map((r) => r.hits))).toEqual(byId(hits));
        for (const [i, q] of queries.entries()) {
          const { parents } = ranked[i]!;
          // Every hit's episode is scored, under this query, as scoreIds scores it.
          for (const h of ranked[i]!.hits) expect(parents.has(h.parent!)).toBe(true);
          const ids = [...parents.keys()];
          const [alone] = await scoreIds(d, () => episodeTarget(scope('ned', filters)), route, [q], ids);
          expect(rounded(parents)).toEqual(rounded(alone));
        }
        // The question's episodes match it by their own text too.
        expect([...ranked[0]!.parents.values()].some((s) => s > 0)).toBe(true);
      }
  });

  it('an episode reached through a fact gets its own score under every query, as scored by id', async () => {
    // Three episodes about the question hold the episodes' pool; one about something else
    // is reached only through its fact (and one more through a fact about the other query).
    for (const subject of ['a windy canoe race', 'a windy canoe lesson', 'a windy canoe crossing'])
      await seedEpisode(f, {
        owners: ['nia'],
        subject,
        summary: `Nia on ${subject}`,
        facts: ['Nia bought bread.'],
      });
    await seedEpisode(f, {
      owners: ['nia'],
      subject: 'tax forms',
      summary: 'Nia filed her tax forms',
      facts: ['Nia remembers one windy canoe trip above all.'],
    });
    await seedEpisode(f, {
      owners: ['nia'],
      subject: 'paying bills',
      summary: 'Nia paid the bills',
      facts: ['The calm weather held all afternoon.'],
    });
    const other: PreparedQuery = {
      text: 'calm weather',
      terms: await queryLexemes(f.db, 'calm weather'),
      vector: (await f.embedder.embed(['calm weather']))[0]!,
    };
    const queries = [...(await prepared('windy canoe', 'canoe trip')), other];
    const weights = [1, 0.9, 0.8];
    const d = { db: f.db, index: f.index };
    for (const route of ['hybrid', 'keyword', 'vector'] as Route[])
      for (const qs of [queries.slice(0, 2), queries]) {
        const w = weights.slice(0, qs.length);
        const c = counting(f.db);
        const ranked = await rankEpisodes({ ...d, db: c.db }, scope('nia'), {
          route,
          queries: qs,
          weights: w,
          pool: 2,
        });
        // The facts' and the episodes' statement of each embedding; on PostgreSQL scoring by id
        // only for a query whose statement did not see an episode's fact (another embedding),
        // on the embedded store (statements one at a time) for every episode reached by a fact.
        if (qs.length === 2) expect(c.statements()).toBe(driver === 'postgres' ? 2 : 3);
        else expect(c.statements()).toBeLessThanOrEqual(6);
        // Each episode's own score: its route score when ranked, else the best weighted score by id.
        const hits = await rankEach(d, () => factTarget(scope('nia')), route, qs, 2);
        const own = mergeQueries(
          (await rankEach(d, () => episodeTarget(scope('nia')), route, qs, 2)).map(scoreMap),
          w,
        );
        const reached = [...new Set(hits.flat().map((h) => h.parent!))].filter((id) => !own.has(id));
        expect(reached.length).toBeGreaterThan(0);
        for (const [id, s] of mergeQueries(
          await scoreIds(d, () => episodeTarget(scope('nia')), route, qs, reached),
          w,
        ))
          own.set(id, s);
        expect(rounded(ranked.own)).toEqual(rounded(own));
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
