import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql as factsFollowEpisode } from '../../src/store/migrations/0022_facts_follow_episode.js';
import { DRIVERS } from '../helpers/drivers.js';
import { addAndFlush, startTestServer, type TestServer } from '../helpers/engram.js';
import { DAY, MIN, multiParty, T0, user } from '../helpers/messages.js';

/**
 * A fact is live exactly while its episode is: search reads an unfiltered fact's liveness
 * from the fact alone. Every path deleting an episode deletes its facts, and migration 0022
 * brings rows written otherwise in line.
 */
describe.each(DRIVERS)('facts follow their episode [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const post = (path: string, body: unknown) => s.call('POST', `/api/v2/memory/${path}`, { key, body });
  const talk = (session: string, messages: unknown[]) => addAndFlush(s, key, session, messages);
  /** Live facts of deleted episodes, and facts deleted so far (so a check is not vacuous). */
  const state = async () =>
    (
      await s.engram.db.query<{ orphans: number; deleted: number }>(
        `SELECT count(*) FILTER (WHERE e.deleted_at IS NOT NULL AND f.deleted_at IS NULL)::int AS orphans,
                count(*) FILTER (WHERE f.deleted_at IS NOT NULL)::int AS deleted
         FROM atomic_facts f JOIN episodes e ON e.tenant_id = f.tenant_id AND e.id = f.episode_id`,
      )
    )[0]!;
  const episodeOf = async (userId: string, session: string) =>
    (
      (await post('get', { memory_type: 'episode', user_id: userId, page_size: 100 })).body.data
        .episodes as Array<{ id: string; session_id: string }>
    ).find((e) => e.session_id === session)!;

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    await talk('a1', [
      user('ann', 'I love climbing and I live in Oslo', T0),
      user('ann', 'I teach maths', T0 + MIN),
    ]);
    await talk('a2', [
      user('ann', 'I adopted a dog named Rex', T0 + DAY),
      user('ann', 'Rex loves the park', T0 + DAY + MIN),
    ]);
    await talk('a3', [
      user('ann', 'My sister Ida plays the cello', T0 + 2 * DAY),
      user('ann', 'Ida practises every morning', T0 + 2 * DAY + MIN),
    ]);
    await talk('mp', multiParty(T0 + 3 * DAY));
    await talk('z1', [
      user('zoe', 'I grow tomatoes on my balcony', T0 + 4 * DAY),
      user('zoe', 'The tomatoes ripen in August', T0 + 4 * DAY + MIN),
    ]);
  });
  afterAll(() => s.close());

  it('every delete path deletes the episode with its facts', async () => {
    expect(await state()).toEqual({ orphans: 0, deleted: 0 });
    let before = 0;
    const deleted = async () => {
      const now = await state();
      expect(now.orphans).toBe(0);
      expect(now.deleted).toBeGreaterThan(before);
      before = now.deleted;
    };
    expect((await post('delete', { user_id: 'ann', session_id: 'a1' })).status).toBe(200);
    await deleted();
    const a2 = await episodeOf('ann', 'a2');
    expect((await post('delete_by_ids', { memory_type: 'episode', memory_ids: [a2.id] })).status).toBe(200);
    await deleted();
    expect((await post('delete', { user_id: 'ann' })).status).toBe(200);
    await deleted();
    // the shared episode stays, with its facts, for the other human
    expect((await post('delete', { user_id: 'alice' })).status).toBe(200);
    expect((await state()).orphans).toBe(0);
    const shared = await episodeOf('bob', 'mp');
    const live = await s.engram.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM atomic_facts WHERE episode_id = $1 AND deleted_at IS NULL',
      [shared.id],
    );
    expect(live[0]!.n).toBeGreaterThan(0);
    expect((await post('delete', { session_id: 'mp' })).status).toBe(200);
    await deleted();
  });

  it('migration 0022 deletes the live facts of an episode deleted without them, and search leaves them out', async () => {
    const ep = await episodeOf('zoe', 'z1');
    const search = async () =>
      (await post('search', { user_id: 'zoe', query: 'tomatoes balcony', method: 'keyword', top_k: 10 })).body
        .data.episodes as unknown[];
    expect(await search()).toHaveLength(1);
    // an episode deleted by hand, its facts left live (engram never writes this)
    await s.engram.db.query(
      `UPDATE episodes SET deleted_at = now() WHERE tenant_id = 'tenant-a' AND id = $1`,
      [ep.id],
    );
    expect((await state()).orphans).toBeGreaterThan(0);
    await s.engram.db.query(factsFollowEpisode);
    expect((await state()).orphans).toBe(0);
    const rows = await s.engram.db.query<{ same: boolean }>(
      `SELECT f.deleted_at = e.deleted_at AS same FROM atomic_facts f JOIN episodes e ON e.tenant_id = f.tenant_id AND e.id = f.episode_id
       WHERE e.id = $1`,
      [ep.id],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.same)).toBe(true);
    expect(await search()).toEqual([]);
    // a second run changes nothing
    await s.engram.db.query(factsFollowEpisode);
    expect((await state()).orphans).toBe(0);
  });
});
