import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { rankRows } from '../../src/engine/search/hybrid.js';
import { queryLexemes } from '../../src/engine/search/keyword.js';
import { factTarget } from '../../src/engine/search/scope.js';
import { DRIVERS } from '../helpers/drivers.js';
import {
  type Fixture,
  openFixture,
  planLines,
  recording,
  seedCase,
  seedEpisode,
  seedKites,
  seedMessage,
} from './seed.js';

/**
 * The keyword route's postings (search_postings) always equal a recount of the live rows,
 * and ranking from them gives the same hits and scores as ranking the rows that match a
 * query term, also when a query term's list is longer than the depth read.
 */
const RECOUNT = `
  WITH d AS (
    SELECT tenant_id, app_id, project_id, 'episode' AS kind, id, owner_ids AS owners, search FROM episodes WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, app_id, project_id, 'fact', id, owner_ids, search FROM atomic_facts WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, app_id, project_id, 'agent_case', id, ARRAY[agent_id], search FROM agent_cases WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, app_id, project_id, 'message', id, owner_ids, search FROM messages
      WHERE deleted_at IS NULL AND state = 'extracted' AND owner_ids IS NOT NULL)
  SELECT d.tenant_id, d.app_id, d.project_id, d.kind, o AS owner_id, u.lexeme AS term, d.id AS doc_id,
         (SELECT coalesce(sum(CASE w WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END), 0) FROM unnest(u.weights) w)::int AS tf,
         length(d.search) AS dl
  FROM d, unnest(d.owners) o, unnest(d.search) u WHERE d.search IS NOT NULL
  ORDER BY 1, 2, 3, 4, 5, 6, 7`;

const STORED = `
  SELECT tenant_id, app_id, project_id, kind, owner_id, term, doc_id, tf, dl FROM search_postings
  ORDER BY 1, 2, 3, 4, 5, 6, 7`;

describe.each(DRIVERS)('keyword postings [%s]', (driver) => {
  let f: Fixture;
  beforeAll(async () => {
    f = await openFixture(driver);
  });
  afterAll(async () => {
    await f?.database.drop();
  });

  it('match a recount after inserts, edits, owner changes and deletes', async () => {
    const a = await seedEpisode(f, {
      owners: ['ann', 'bob'],
      subject: 'glider flight',
      summary: 'Ann and Bob flew a glider over the ridge',
      facts: ['Ann flew a glider.', 'Bob felt sick on the glider flight.'],
    });
    await seedEpisode(f, { owners: ['ann'], subject: 'bread baking', facts: ['Ann baked rye bread.'] });
    await seedEpisode(f, { owners: ['ann'], subject: 'never posted', facts: [], deleted: true });
    await seedCase(f, { agent: 'helper', intent: 'book a glider', approach: 'called the airfield' });
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));

    await f.db.query(`UPDATE episodes SET summary = 'a calm flight at dusk' WHERE id = $1`, [a.id]);
    await f.db.query(
      `UPDATE atomic_facts SET owner_ids = array_remove(owner_ids, 'bob') WHERE tenant_id = 'tenant-a' AND episode_id = $1`,
      [a.id],
    );
    await f.db.query(`UPDATE atomic_facts SET deleted_at = now() WHERE id = $1`, [a.factIds[1]]);
    await f.db.query(`DELETE FROM atomic_facts WHERE id = $1`, [a.factIds[0]]);
    await f.db.query(`UPDATE episodes SET updated_at = now()`);
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));

    // turns: posted once extracted, for each owner, until deleted or disowned
    const m1 = await seedMessage(f, {
      session: 's-9',
      sender: 'ann',
      content: 'the glider landed in a field',
    });
    const m2 = await seedMessage(f, {
      session: 's-9',
      sender: 'bob',
      content: 'we walked back to the glider',
    });
    await seedMessage(f, {
      session: 's-9',
      sender: 'bob',
      content: 'glider',
      state: 'extracted',
      owners: ['bob'],
    });
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    await f.db.query(
      `UPDATE messages SET state = 'extracted', owner_ids = ARRAY['ann', 'bob'] WHERE id IN ($1, $2)`,
      [m1, m2],
    );
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    await f.db.query(`UPDATE messages SET owner_ids = array_remove(owner_ids, 'ann') WHERE id = $1`, [m2]);
    await f.db.query(`UPDATE messages SET deleted_at = now() WHERE id = $1`, [m1]);
    await f.db.query(`UPDATE messages SET embedding = NULL`); // nothing posted changes
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
  });

  it('rank like the rows matching a query term, also beyond the depth read', async () => {
    // More facts holding "kite" than one list read reaches, with lengths and weights varied.
    await seedKites(f, 'kim');
    const run = (filters?: Record<string, unknown>) =>
      f.search.search(
        { tenantId: 'tenant-a' },
        SearchInput.parse({
          user_id: 'kim',
          query: 'kite string',
          method: 'keyword',
          top_k: 20,
          ...(filters ? { filters } : {}),
        }),
      );
    // A filter every row passes takes the other path (rows matching a query term).
    const [posted, rows] = await Promise.all([run(), run({ timestamp: { gte: 0 } })]);
    const facts = (r: Awaited<ReturnType<typeof run>>) =>
      r.episodes.flatMap((e) => e.atomic_facts.map((x) => [x.id, x.score]));
    expect(facts(posted).length).toBeGreaterThan(0);
    expect(facts(posted)).toEqual(facts(rows));
  });

  it('count each field weight the same from postings and from a row, also for the facts of a returned episode', async () => {
    // The term in the subject (A, 3), the summary (B, 2) and the narrative (C, 1), once or
    // several times, so a wrong weight changes a score.
    const texts = [
      { subject: 'lantern repair', summary: 'a lantern and a lantern hook', episode: 'fixed the lantern' },
      { subject: 'evening walk', summary: 'took the lantern along', episode: 'lantern lantern lantern glow' },
      { subject: 'lantern', summary: 'workshop', episode: 'nothing else here' },
      { subject: 'shopping', summary: 'bought oil', episode: 'oil for the lantern, and a wick' },
    ];
    for (const t of texts)
      await seedEpisode(f, {
        owners: ['lia'],
        ...t,
        facts: [`Lia ${t.summary}.`, 'Lia likes quiet evenings.'],
      });
    const run = (filters?: Record<string, unknown>) =>
      f.search.search(
        { tenantId: 'tenant-a' },
        SearchInput.parse({
          user_id: 'lia',
          query: 'lantern wick',
          method: 'keyword',
          ...(filters ? { filters } : {}),
        }),
      );
    const [posted, rows] = await Promise.all([run(), run({ timestamp: { gte: 0 } })]);
    const scores = (r: Awaited<ReturnType<typeof run>>) =>
      r.episodes.map((e) => [e.subject, e.score, e.atomic_facts.map((x) => [x.content, x.score])]);
    expect(posted.episodes).toHaveLength(4);
    expect(new Set(posted.episodes.map((e) => e.score)).size).toBe(4);
    // Facts not matching the query are still scored (0 for keyword) inside their episode.
    expect(posted.episodes.flatMap((e) => e.atomic_facts)).toHaveLength(8);
    expect(scores(posted)).toEqual(scores(rows));
  });

  it('score a posting and a row in float8 arithmetic, no numeric per row', async () => {
    await seedEpisode(f, { owners: ['nia'], subject: 'canoe trip', facts: ['Nia paddled a canoe twice.'] });
    const { db, sent } = recording(f.db);
    const d = { db, index: f.index };
    const q = { text: 'canoe', terms: await queryLexemes(f.db, 'canoe') };
    const scope = { tenantId: 'tenant-a', appId: 'default', projectId: 'default', ownerId: 'nia' };
    // From the postings, and from the rows matching a term (a filter every row passes).
    for (const filters of [undefined, { timestamp: { gte: 0 } }])
      expect(await rankRows(d, factTarget({ ...scope, filters }), 'keyword', q, 50)).toHaveLength(1);
    expect(sent).toHaveLength(2);
    for (const s of sent) {
      // The BM25 sums (k1 + 1 = 2.2 in them), as the plan computes them per posting or row.
      const sums = (await planLines(f.db, s.text, s.params, 'VERBOSE')).filter(
        (l) => l.includes('sum(') && l.includes("'2.2'"),
      );
      expect(sums.length).toBeGreaterThan(0);
      for (const l of sums) expect(l).not.toContain('numeric');
    }
  });
});
