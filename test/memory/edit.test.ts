import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';

/** update, delete_by_ids and feedback on episodes, profiles and cases. */
describe.each(DRIVERS)('update / delete_by_ids / feedback [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const post = (path: string, body: unknown, k = key) =>
    s.call('POST', `/api/v2/memory/${path}`, { key: k, body });
  const episodesOf = async (userId: string) =>
    (await post('get', { memory_type: 'episode', user_id: userId, page_size: 100 })).body.data
      .episodes as any[];
  const seed = async (session: string, userId: string, text: string) => {
    await post('add', {
      session_id: session,
      messages: [user(userId, text, T0), user(userId, `${text} again`, T0 + MIN)],
    });
    await post('flush', { session_id: session });
    return (await episodesOf(userId)).find((e) => e.session_id === session);
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
  });
  afterAll(() => s.close());

  it('update rewrites the narrative, regenerates the summary, marks the edit, refreshes facts in the background', async () => {
    const ep = await seed('up1', 'eve', 'I bought a red bicycle');
    const r = await post('update', {
      memory_type: 'episode',
      memory_id: ep.id,
      patch: { episode: 'Eve bought a blue tandem bicycle in May 2024. She rides it to work.' },
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: ep.id,
      unchanged: false,
      reflect_state: 'pending',
      subject: ep.subject,
    });
    expect(r.body.data.summary).toContain('blue tandem');
    expect(r.body.data.edited_at).toBeTruthy();
    await s.engram.queue.drain();
    const after = (await episodesOf('eve')).find((e) => e.id === ep.id);
    expect(after.reflect_state).toBe('done');
    expect(after.episode).toContain('blue tandem');
    expect(after.atomic_facts.map((f: any) => f.content).join(' ')).toContain('tandem');
    // re-sending the same content writes nothing
    const same = await post('update', {
      memory_type: 'episode',
      memory_id: ep.id,
      patch: { subject: after.subject },
    });
    expect(same.body.data.unchanged).toBe(true);
    expect(same.body.data.edited_at).toBe(after.edited_at);
  });

  it.each([
    [
      'non-episode type',
      { memory_type: 'profile', memory_id: 'a'.repeat(24), patch: { summary: 'x' } },
      'memory_type',
    ],
    ['malformed id', { memory_type: 'episode', memory_id: 'nope', patch: { summary: 'x' } }, 'memory_id'],
    ['empty patch', { memory_type: 'episode', memory_id: 'a'.repeat(24), patch: {} }, 'patch'],
    [
      'unknown patch field',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), patch: { tags: [] } },
      'patch',
    ],
    [
      'subject too long',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), patch: { subject: 'x'.repeat(201) } },
      'patch.subject',
    ],
  ])('update rejects %s with 422', async (_n, body, param) => {
    const r = await post('update', body);
    expect(r.status).toBe(422);
    expect(r.body.param).toBe(param);
  });

  it('update of a missing episode is 404', async () => {
    const r = await post('update', {
      memory_type: 'episode',
      memory_id: 'b'.repeat(24),
      patch: { summary: 'x' },
    });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('NotFound');
  });

  it('delete_by_ids soft-deletes with facts, skips unknown ids, and is safe to resend', async () => {
    const a = await seed('del1', 'dan', 'I collect vinyl records');
    const b = await seed('del2', 'dan', 'I play the trumpet');
    const body = {
      memory_type: 'episode',
      memory_ids: [a.id, a.id.toUpperCase(), 'c'.repeat(24)],
      reason: { code: 'privacy' },
    };
    const r = await post('delete_by_ids', body);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ memory_type: 'episode', success: true });
    expect((await episodesOf('dan')).map((e) => e.id)).toEqual([b.id]);
    const facts = await s.engram.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM atomic_facts WHERE episode_id = $1 AND deleted_at IS NULL',
      [a.id],
    );
    expect(facts[0]!.n).toBe(0);
    expect((await post('delete_by_ids', body)).status).toBe(200);
  });

  it.each([
    [
      'one malformed id',
      (id: string) => ({ memory_type: 'episode', memory_ids: [id, 'bad'] }),
      'memory_ids[1]',
    ],
    ['no ids', () => ({ memory_type: 'episode', memory_ids: [] }), 'memory_ids'],
    [
      '51 ids',
      (id: string) => ({ memory_type: 'episode', memory_ids: Array.from({ length: 51 }, () => id) }),
      'memory_ids',
    ],
    ['another type', (id: string) => ({ memory_type: 'profile', memory_ids: [id] }), 'memory_type'],
    [
      'reason outdated',
      (id: string) => ({ memory_type: 'episode', memory_ids: [id], reason: { code: 'outdated' } }),
      'reason.code',
    ],
  ])('delete_by_ids rejects %s with 422 and deletes nothing', async (name, body, param) => {
    const ep = await seed(`keep-${name}`, 'kim', 'I keep bees');
    const r = await post('delete_by_ids', body(ep.id));
    expect(r.status).toBe(422);
    expect(r.body.param).toBe(param);
    expect((await episodesOf('kim')).map((e) => e.id)).toContain(ep.id);
  });

  it('feedback stores a signal and changes nothing', async () => {
    const ep = await seed('fb1', 'fay', 'I am allergic to peanuts');
    const before = await episodesOf('fay');
    const r = await post('feedback', {
      memory_type: 'episode',
      memory_id: ep.id,
      rating: 'negative',
      reason: 'wrong_time',
      note: 'date off',
      suggestion: 'It was June.',
    });
    expect(r.status).toBe(200);
    expect(r.body.data.id).toMatch(/^[0-9a-f]{24}$/);
    expect(await episodesOf('fay')).toEqual(before);
    const stored = await s.engram.db.query('SELECT rating, reason, suggestion FROM feedback WHERE id = $1', [
      r.body.data.id,
    ]);
    expect(stored[0]).toMatchObject({ rating: 'negative', reason: 'wrong_time', suggestion: 'It was June.' });
    const prof = (await post('get', { memory_type: 'profile', user_id: 'fay' })).body.data.profiles[0];
    const item = prof.profile_data.explicit_info[0] ?? prof.profile_data.implicit_traits[0];
    expect(
      (
        await post('feedback', {
          memory_type: 'profile',
          memory_id: prof.id,
          item_id: item.item_id,
          rating: 'positive',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await post('feedback', {
          memory_type: 'profile',
          memory_id: prof.id,
          item_id: `ei_${'0'.repeat(24)}`,
          rating: 'positive',
        })
      ).status,
    ).toBe(404);
  });

  it.each([
    [
      'unknown field',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'positive', extra: 1 },
      '',
    ],
    ['bad id', { memory_type: 'episode', memory_id: 'xyz', rating: 'positive' }, 'memory_id'],
    [
      'profile without item_id',
      { memory_type: 'profile', memory_id: 'a'.repeat(24), rating: 'positive' },
      'item_id',
    ],
    [
      'item_id on an episode',
      {
        memory_type: 'episode',
        memory_id: 'a'.repeat(24),
        item_id: `ei_${'a'.repeat(24)}`,
        rating: 'positive',
      },
      'item_id',
    ],
    [
      'bad item_id',
      { memory_type: 'profile', memory_id: 'a'.repeat(24), item_id: 'ei_XYZ', rating: 'positive' },
      'item_id',
    ],
    [
      'reason on positive',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'positive', reason: 'other' },
      'reason',
    ],
    [
      'suggestion on positive',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'positive', suggestion: 'x' },
      'suggestion',
    ],
    [
      'unknown reason',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'negative', reason: 'boring' },
      'reason',
    ],
    [
      'empty note',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'positive', note: '' },
      'note',
    ],
    [
      'note over 256',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'positive', note: 'x'.repeat(257) },
      'note',
    ],
    [
      'suggestion over 8000',
      { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'negative', suggestion: 'x'.repeat(8001) },
      'suggestion',
    ],
    ['bad rating', { memory_type: 'episode', memory_id: 'a'.repeat(24), rating: 'meh' }, 'rating'],
  ])('feedback rejects %s with 422', async (_n, body, param) => {
    const r = await post('feedback', body);
    expect(r.status).toBe(422);
    expect(r.body.param ?? '').toBe(param);
  });

  it('feedback on a missing or deleted target is 404', async () => {
    const ep = await seed('fb2', 'gus', 'I run marathons');
    await post('delete_by_ids', { memory_type: 'episode', memory_ids: [ep.id] });
    for (const id of [ep.id, 'e'.repeat(24)]) {
      const r = await post('feedback', { memory_type: 'episode', memory_id: id, rating: 'positive' });
      expect(r.status).toBe(404);
    }
    const rows = await s.engram.db.query('SELECT 1 FROM feedback WHERE memory_id = $1', [ep.id]);
    expect(rows).toHaveLength(0);
  });
});
