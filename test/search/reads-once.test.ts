import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import { readsOnce } from '../../src/engine/search/reads-once.js';
import { SearchService } from '../../src/engine/search/service.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, recording, seedEpisode } from './seed.js';

/** A search's reads (reads-once.ts): a statement repeated with the same parameters runs once. */
describe.each(DRIVERS)('a search reads each statement once [%s]', (driver) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await openFixture(driver);
    const told = [
      [
        'a sailing trip',
        'Nora sailed a dinghy to the island with her brother Tom.',
        ['Nora sailed a dinghy to the island.', 'Tom is Nora’s brother.'],
      ],
      [
        'a brother’s work',
        'Tom repairs boats at the harbour workshop in winter.',
        ['Tom repairs boats at the harbour workshop.'],
      ],
      [
        'a garden',
        'Nora planted tomatoes and basil on the balcony.',
        ['Nora planted tomatoes on the balcony.'],
      ],
      [
        'a concert',
        'Nora heard a string quartet play in the old church.',
        ['Nora heard a string quartet in the church.'],
      ],
    ] as const;
    for (const [subject, summary, facts] of told)
      await seedEpisode(f, { owners: ['nora'], subject, summary, facts: [...facts] });
  });
  afterAll(() => f.database.drop());

  it('answers a repeated statement from the first run, each caller with its own rows', async () => {
    const r = recording(f.db);
    const db = readsOnce(r.db);
    const sql = 'SELECT g AS n FROM generate_series(1, $1::int) g ORDER BY g';
    const [a, b] = await Promise.all([db.query(sql, [3]), db.query(sql, [3])]);
    const c = await db.query(sql, [2]);
    expect(r.sent.map((s) => s.params)).toEqual([[3], [2]]);
    a[0]!['n'] = 99;
    a.reverse();
    expect(b).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await db.query(sql, [3])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(c).toHaveLength(2);
  });

  /** The statements sent more than once with the same parameters. */
  const repeated = (sent: { text: string; params: unknown }[]) => {
    const keys = sent.map((s) => `${s.text}\u0000${JSON.stringify(s.params)}`);
    expect(keys.length).toBeGreaterThan(0);
    return keys.filter((k, i) => keys.indexOf(k) !== i);
  };
  const recorded = () => {
    const r = recording(f.db);
    const service = new SearchService({
      db: r.db,
      embedder: f.embedder,
      log: silentLogger,
      vectorIndex: f.index,
    });
    return {
      sent: r.sent,
      search: (input: Record<string, unknown>) =>
        service.search({ tenantId: 'tenant-a' }, SearchInput.parse(input)),
    };
  };
  const question = { user_id: 'nora', query: 'Where did Nora sail her dinghy?' };

  // The other methods send each statement once: service.ts wraps an agentic search's reads only.
  it.each(['keyword', 'vector', 'hybrid'])(
    'a %s search sends no statement twice of itself',
    async (method) => {
      const r = recorded();
      const res = await r.search({ ...question, method, include_profile: true });
      expect(res.episodes[0]?.subject).toBe('a sailing trip');
      expect(repeated(r.sent)).toEqual([]);
    },
  );

  it('runs no statement of an agentic search twice, though its second round ranks the question again', async () => {
    const r = recorded();
    const res = await r.search({ ...question, method: 'agentic' });
    // offline: the question, then the question and its expansion from the first hits
    expect(res.metadata).toMatchObject({ rounds: 2, degraded: true });
    expect(res.metadata.queries).toHaveLength(2);
    expect(res.episodes[0]?.subject).toBe('a sailing trip');
    expect(repeated(r.sent)).toEqual([]);
  });
});
