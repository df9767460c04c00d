import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, hex24, openFixture, seedCase, seedEpisode } from './seed.js';

/**
 * The owner-scoped BM25 statistics (search_counts) always equal a recount of the live
 * rows, whatever writes, edits, owner changes and deletes happened, and concurrent
 * writers of different owners never wait for each other.
 */
const RECOUNT = `
  WITH d AS (
    SELECT tenant_id, app_id, project_id, 'episode' AS kind, owner_ids AS owners, search FROM episodes WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, app_id, project_id, 'fact', owner_ids, search FROM atomic_facts WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, app_id, project_id, 'agent_case', ARRAY[agent_id], search FROM agent_cases WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, app_id, project_id, 'agent_skill', ARRAY[agent_id], search FROM agent_skills WHERE deleted_at IS NULL
    UNION ALL SELECT tenant_id, 'kb', kb_id, 'topic', ARRAY[kb_id], search FROM kb_topics
    UNION ALL SELECT tenant_id, app_id, project_id, 'message', owner_ids, search FROM messages
      WHERE deleted_at IS NULL AND state = 'extracted' AND owner_ids IS NOT NULL)
  SELECT tenant_id, app_id, project_id, kind, owner_id, term, sum(docs)::int AS docs, sum(len)::int AS len FROM (
    SELECT d.tenant_id, d.app_id, d.project_id, d.kind, o AS owner_id, '' AS term, 1 AS docs, length(d.search) AS len
    FROM d, unnest(d.owners) o WHERE d.search IS NOT NULL
    UNION ALL
    SELECT d.tenant_id, d.app_id, d.project_id, d.kind, o, t, 1, 0 FROM d, unnest(d.owners) o, unnest(tsvector_to_array(d.search)) t
  ) x GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`;

const STORED = `
  SELECT tenant_id, app_id, project_id, kind, owner_id, term, sum(docs)::int AS docs, sum(len)::int AS len
  FROM search_counts GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(docs) <> 0 OR sum(len) <> 0 ORDER BY 1, 2, 3, 4, 5, 6`;

describe.each(DRIVERS)('search statistics [%s]', (driver) => {
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
      subject: 'kayak trip',
      summary: 'Ann and Bob paddled a kayak across the bay',
      facts: ['Ann paddled a kayak.', 'Bob fell into the bay twice.'],
    });
    await seedEpisode(f, { owners: ['ann'], subject: 'pottery class', facts: ['Ann threw a clay bowl.'] });
    await seedEpisode(f, {
      owners: ['cy'],
      project: 'other',
      subject: 'kayak repair',
      facts: ['Cy patched a kayak.'],
    });
    await seedEpisode(f, { owners: ['ann'], subject: 'never counted', facts: [], deleted: true });
    await seedCase(f, { agent: 'helper', intent: 'book a kayak', approach: 'called the rental desk' });
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));

    // An edit of the text, a change of owners, a soft delete, a hard delete, in one transaction each.
    await f.db.query(`UPDATE episodes SET summary = 'a long quiet paddle at dawn' WHERE id = $1`, [a.id]);
    await f.db.query(
      `UPDATE atomic_facts SET owner_ids = array_remove(owner_ids, 'bob') WHERE tenant_id = 'tenant-a' AND episode_id = $1`,
      [a.id],
    );
    await f.db.query(`UPDATE atomic_facts SET deleted_at = now() WHERE id = $1`, [a.factIds[1]]);
    await f.db.query(`DELETE FROM atomic_facts WHERE id = $1`, [a.factIds[0]]);
    await f.db.query(`UPDATE episodes SET updated_at = now()`); // no text change: no effect
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));

    // Several rows in one statement.
    await f.db.query(
      `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, owner_ids, ts, content)
       SELECT 'tenant-a', md5(g::text), $1, 'default', 'default', ARRAY['ann'], 0, 'kayak number ' || g
       FROM generate_series(1, 25) g`,
      [a.id],
    );
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    // A key keeps a handful of rows, not one per write.
    const rows = await f.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM search_counts WHERE kind = 'fact' AND owner_id = 'ann' AND term = 'kayak'`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('count knowledge-base topics under the scope and owner of their knowledge base', async () => {
    await f.db.query(
      `INSERT INTO knowledge_bases (tenant_id, id, name) VALUES ('tenant-a', 'kb-1', 'Garden'), ('tenant-a', 'kb-2', 'Boats')`,
    );
    await f.db.query(
      `INSERT INTO kb_documents (tenant_id, id, kb_id, title) VALUES ('tenant-a', 'doc-1', 'kb-1', 'Beds'), ('tenant-a', 'doc-2', 'kb-2', 'Hulls')`,
    );
    await f.db.query(
      `INSERT INTO kb_topics (tenant_id, id, kb_id, doc_id, type, name, search)
       SELECT 'tenant-a', 'tp-' || g, CASE WHEN g <= 3 THEN 'kb-1' ELSE 'kb-2' END, CASE WHEN g <= 3 THEN 'doc-1' ELSE 'doc-2' END,
              CASE WHEN g IN (1, 4) THEN 'root' ELSE 'section' END, 'topic ' || g,
              CASE WHEN g IN (1, 4) THEN NULL ELSE to_tsvector('english', 'raised beds need compost and a hull needs paint ' || g) END
       FROM generate_series(1, 6) g`,
    );
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    await f.db.query(
      `UPDATE kb_topics SET search = to_tsvector('english', 'mulch the beds in autumn') WHERE id = 'tp-2'`,
    );
    await f.db.query(`UPDATE kb_topics SET tag_ids = ARRAY['t1'] WHERE id = 'tp-3'`); // no text change: no effect
    await f.db.query(`DELETE FROM kb_documents WHERE id = 'doc-2'`); // cascades to its topics
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    const rows = await f.db.query<{ project_id: string; owner_id: string; docs: number }>(
      `SELECT project_id, owner_id, docs::int AS docs FROM search_counts
       WHERE app_id = 'kb' AND kind = 'topic' AND term = '' AND docs <> 0`,
    );
    expect(rows).toEqual([{ project_id: 'kb-1', owner_id: 'kb-1', docs: 2 }]);
  });

  it('count extracted turns for each of their owners, through extraction, owner changes and deletes', async () => {
    await f.db.query(
      `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, role, content, ts, state)
       SELECT 'tenant-a', 'msg-' || g, 'default', 'default', CASE WHEN g <= 4 THEN 's-1' ELSE 's-2' END,
              CASE WHEN g % 2 = 0 THEN 'helper' ELSE 'ann' END, 'user', 'the canoe leaks at the stern ' || g, g, 'queued'
       FROM generate_series(1, 7) g`,
    );
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    await f.db.query(`UPDATE messages SET state = 'buffered' WHERE tenant_id = 'tenant-a'`); // not extracted: no effect
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    await f.db.query(
      `UPDATE messages SET state = 'extracted', owner_ids = CASE session_id WHEN 's-1' THEN ARRAY['ann'] ELSE ARRAY['ann', 'cy'] END
       WHERE tenant_id = 'tenant-a' AND id LIKE 'msg-%'`,
    );
    await f.db.query(`UPDATE messages SET deleted_at = now() WHERE id = 'msg-2'`);
    await f.db.query(`DELETE FROM messages WHERE id = 'msg-6'`);
    await f.db.query(`UPDATE messages SET owner_ids = array_remove(owner_ids, 'cy') WHERE id = 'msg-7'`);
    expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
    const rows = await f.db.query<{ owner_id: string; docs: number }>(
      `SELECT owner_id, docs::int AS docs FROM search_counts
       WHERE kind = 'message' AND term = '' AND docs <> 0 ORDER BY owner_id`,
    );
    expect(rows).toEqual([
      { owner_id: 'ann', docs: 5 },
      { owner_id: 'cy', docs: 1 },
    ]);
  });

  it.skipIf(driver !== 'postgres')(
    'concurrent writers of different owners never wait for each other',
    async () => {
      const insert = (tx: { query: typeof f.db.query }, owner: string, content: string) =>
        tx.query(
          `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, owner_ids, ts, content)
         VALUES ('tenant-a', $1, 'e-shared', 'default', 'concurrent', ARRAY[$2], 0, $3)`,
          [hex24(), owner, content],
        );
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let firstWrote!: () => void;
      const wrote = new Promise<void>((r) => {
        firstWrote = r;
      });
      // The first transaction writes and stays open until the second one has committed: if
      // the second had to wait for the first, this test would never finish.
      const first = f.db.transaction(async (tx) => {
        await insert(tx, 'dee', 'Dee planted tomatoes in the garden.');
        firstWrote();
        await held;
      });
      await wrote;
      await f.db.transaction((tx) => insert(tx, 'eve', 'Eve watered the tomatoes in the garden.'));
      release();
      await first;
      expect(await f.db.query(STORED)).toEqual(await f.db.query(RECOUNT));
      const rows = await f.db.query<{ owner_id: string; docs: number }>(
        `SELECT owner_id, docs::int AS docs FROM search_counts
       WHERE project_id = 'concurrent' AND kind = 'fact' AND term = 'tomato' ORDER BY owner_id`,
      );
      expect(rows).toEqual([
        { owner_id: 'dee', docs: 1 },
        { owner_id: 'eve', docs: 1 },
      ]);
    },
  );
});
