import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import type { Db } from '../../src/core/db.js';
import { silentLogger } from '../../src/core/log.js';
import { postingsDepth } from '../../src/engine/search/keyword.js';
import { SearchService } from '../../src/engine/search/service.js';
import { openPostgres } from '../../src/store/postgres.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture } from './seed.js';

/**
 * The keyword route reads each query term's postings best impact first, to a depth. When
 * more documents than that share the impact at the cut, which of them are read must not
 * depend on the plan that reads them: the same question gets the same answer whether the
 * postings come from the primary key in order or from a scan and a sort.
 */
const FACTS = postingsDepth(50) + 100;

const input = (query: string) => SearchInput.parse({ query, method: 'keyword', user_id: 'ivo', top_k: 20 });
const episodeIds = (d: Awaited<ReturnType<SearchService['search']>>) => d.episodes.map((e) => e.id);

describe.each(DRIVERS)('postings of equal impact at the depth [%s]', (driver) => {
  let f: Fixture;

  beforeAll(async () => {
    f = await openFixture(driver);
    // More episodes than the depth, each with one identical fact: every posting of "kettl"
    // has the same impact, and which facts are read decides which episodes are returned.
    const [episodeVector] = await f.embedder.embed(['kitchen shelf']);
    const [factVector] = await f.embedder.embed(['The kettle is blue.']);
    await f.db.query(
      `INSERT INTO episodes (tenant_id, id, app_id, project_id, session_id, owner_ids, sender_ids, ts, subject, summary,
                             episode, type, source_message_ids, embedding)
       SELECT 'tenant-a', left(md5('episode' || i), 24), 'default', 'default', 's1', ARRAY['ivo'], ARRAY['ivo'], 0,
              'kitchen shelf', 'kitchen shelf', 'kitchen shelf', 'Conversation',
              jsonb_build_array(left(md5('source' || i), 24)), $1::vector
       FROM generate_series(1, $2::int) AS i`,
      [`[${episodeVector!.join(',')}]`, FACTS],
    );
    await f.db.query(
      `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, session_id, owner_ids, ts, content,
                                 source_message_ids, embedding)
       SELECT 'tenant-a', left(md5('fact' || i), 24), left(md5('episode' || i), 24), 'default', 'default', 's1',
              ARRAY['ivo'], 0, 'The kettle is blue.', jsonb_build_array(left(md5('source' || i), 24)), $1::vector
       FROM generate_series(1, $2::int) AS i`,
      [`[${factVector!.join(',')}]`, FACTS],
    );
  }, 60_000);
  afterAll(async () => {
    await f?.database.drop();
  });

  it('the same answer when the postings are read without the primary key in order', async () => {
    const indexed = await f.search.search({ tenantId: 'tenant-a' }, input('kettle'));
    expect(episodeIds(indexed).length).toBeGreaterThan(0);

    let db: Db = f.db;
    if (driver === 'pglite') {
      await f.db.query('SET enable_indexscan = off');
      await f.db.query('SET enable_indexonlyscan = off');
    } else {
      const url = f.database.url!;
      const name = new URL(url).pathname.slice(1);
      await f.db.query(`ALTER DATABASE "${name}" SET enable_indexscan = off`);
      await f.db.query(`ALTER DATABASE "${name}" SET enable_indexonlyscan = off`);
      db = openPostgres(url, { max: 2 });
    }
    try {
      const scanned = new SearchService({
        db,
        embedder: f.embedder,
        log: silentLogger,
        vectorIndex: f.index,
      });
      const again = await scanned.search({ tenantId: 'tenant-a' }, input('kettle'));
      expect(episodeIds(again)).toEqual(episodeIds(indexed));
    } finally {
      if (driver === 'pglite') {
        await f.db.query('RESET enable_indexscan');
        await f.db.query('RESET enable_indexonlyscan');
      } else await db.close();
    }
  });
});
