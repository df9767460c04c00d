import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import { DEFAULT_KEYWORD_DEPTH } from '../../src/engine/search/keyword.js';
import { SearchService } from '../../src/engine/search/service.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture } from './seed.js';

/**
 * The keyword route reads each query term's postings best impact first, to a depth
 * (ENGRAM_KEYWORD_DEPTH, default 1,000). A fact holding both terms of a question scores
 * best by BM25, yet sits behind more than the depth of facts holding one term more strongly
 * in each term's list: the default depth misses it, a deeper read finds it first.
 */
const EACH = DEFAULT_KEYWORD_DEPTH + 150;

describe.each(DRIVERS)('the keyword postings depth [%s]', (driver) => {
  let f: Fixture;
  const ask = (search: SearchService) =>
    search.search(
      { tenantId: 'tenant-a' },
      SearchInput.parse({ query: 'lantern harbour', method: 'keyword', user_id: 'ivo', top_k: 5 }),
    );
  const best = (d: Awaited<ReturnType<SearchService['search']>>) =>
    d.episodes.flatMap((e) => e.atomic_facts).sort((a, b) => b.score - a.score)[0]?.content;

  beforeAll(async () => {
    f = await openFixture(driver);
    // EACH facts naming a lantern alone and EACH naming the harbour alone, one word each
    // (each one's impact on its term beats the fact holding both), and that one fact; each
    // fact in an episode of its own (an answer scores every fact of the episodes it returns).
    await f.db.query(
      `WITH facts AS (
         SELECT md5(w || g) AS id, w AS content FROM generate_series(1, $1::int) g
         CROSS JOIN (VALUES ('lantern'), ('harbour')) AS v(w)
         UNION ALL SELECT md5('both'), 'lantern harbour'),
       eps AS (
         INSERT INTO episodes (tenant_id, id, app_id, project_id, session_id, owner_ids, sender_ids, ts, subject,
                               summary, episode, type, source_message_ids)
         SELECT 'tenant-a', left(id, 24), 'default', 'default', 's1', ARRAY['ivo'], ARRAY['ivo'], 0, 'a walk',
                'a walk', 'a walk', 'Conversation', '[]'::jsonb FROM facts)
       INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, owner_ids, ts, content)
       SELECT 'tenant-a', id, left(id, 24), 'default', 'default', ARRAY['ivo'], 0, content FROM facts`,
      [EACH],
    );
  }, 120_000);
  afterAll(async () => {
    await f?.database.drop();
  });

  it('the default depth misses the best fact behind longer lists; a deeper read finds it first', async () => {
    expect(best(await ask(f.search))).not.toBe('lantern harbour');
    const deeper = new SearchService({
      db: f.db,
      embedder: f.embedder,
      log: silentLogger,
      vectorIndex: f.index,
      keywordDepth: 2 * EACH,
    });
    expect(best(await ask(deeper))).toBe('lantern harbour');
  });
});
