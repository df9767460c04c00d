import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db, Sql } from '../../src/core/db.js';
import { type PreparedQuery, rankEach, rankRows } from '../../src/engine/search/hybrid.js';
import { queryLexemes } from '../../src/engine/search/keyword.js';
import { episodeTarget, factTarget, type SearchScope } from '../../src/engine/search/scope.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, seedEpisode } from './seed.js';

/**
 * Queries of one search with the same embedding (a question and its bridged form) read a
 * target's nearest rows once, and every query still gets exactly the hits and scores it gets
 * when ranked alone.
 */
const SCOPE: SearchScope = {
  tenantId: 'tenant-a',
  appId: 'default',
  projectId: 'default',
  ownerId: 'ned',
  filters: undefined,
};

/** The Db with a count of the statements that read nearest rows (vector.ts nearest()). */
function counting(db: Db): { db: Db; nearestReads: () => number } {
  let n = 0;
  const query: Sql['query'] = (text, params) => {
    if (text.includes(' AS d FROM ')) n++;
    return db.query(text, params);
  };
  return { db: Object.assign(Object.create(db) as Db, { query }), nearestReads: () => n };
}

describe.each(DRIVERS)('nearest rows shared by queries of one embedding [%s]', (driver) => {
  let f: Fixture;
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

  it('read once and rank each query as alone, for episodes and facts', async () => {
    const text = 'boat trip on windy water';
    const vector = (await f.embedder.embed([text]))[0]!;
    const terms = await queryLexemes(f.db, text);
    const question: PreparedQuery = { text, terms, vector };
    const added = await queryLexemes(f.db, 'kayak canoe');
    const bridged: PreparedQuery = { text, terms: [...terms, ...added], vector, own: terms };
    const other: PreparedQuery = {
      text: 'calm',
      terms: ['calm'],
      vector: (await f.embedder.embed(['calm']))[0]!,
    };
    const queries = [question, bridged, other];
    for (const target of [episodeTarget, factTarget]) {
      const c = counting(f.db);
      const shared = await rankEach({ db: c.db, index: f.index }, () => target(SCOPE), 'hybrid', queries, 3);
      // One read for the two queries of one embedding, one inside the third query's statement.
      expect(c.nearestReads()).toBe(2);
      const alone = await Promise.all(
        queries.map((q) => rankRows({ db: f.db, index: f.index }, target(SCOPE), 'hybrid', q, 3)),
      );
      const sorted = (rows: { id: string }[][]) =>
        rows.map((r) => [...r].sort((a, b) => (a.id < b.id ? -1 : 1)));
      expect(sorted(shared)).toEqual(sorted(alone));
    }
    // Among the facts, the bridged query's candidates come from both halves (3 + 3, overlapping).
    const facts = await rankEach({ db: f.db, index: f.index }, () => factTarget(SCOPE), 'hybrid', queries, 3);
    expect(facts[1]!.length).toBeGreaterThan(3);
  });
});
