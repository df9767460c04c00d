import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';
import { componentErrors } from '../helpers/upstream.js';

/** tag/bind, tag/unbind, tag/replace, tags in get and search filters, and profile edit. */
describe.each(DRIVERS)('memory tags and profile edit [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const post = (path: string, body: unknown, k = key) =>
    s.call('POST', `/api/v2/memory/${path}`, { key: k, body });
  const getEpisodes = (body: object = {}) =>
    post('get', { memory_type: 'episode', user_id: 'nina', page_size: 100, ...body });
  const episodes = async (body: object = {}) => (await getEpisodes(body)).body.data.episodes as any[];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    const notes = {
      boat: 'I repainted the hull of my sailing boat in dark green',
      bread: 'I baked sourdough bread with rye flour this morning',
      chess: 'I lost a long chess game against my neighbour yesterday',
    };
    for (const [session, text] of Object.entries(notes)) {
      await post('add', {
        session_id: session,
        messages: [user('nina', text, T0), user('nina', `${text}.`, T0 + MIN)],
      });
      await post('flush', { session_id: session });
    }
    for (const e of await episodes()) ids[e.session_id] = e.id;
    expect(Object.keys(ids).sort()).toEqual(['boat', 'bread', 'chess']);
  });
  afterAll(() => s.close());

  const tag = (change: string, memory_ids: string[], tags: string[]) =>
    post(`tag/${change}`, { memory_type: 'episode', memory_ids, tags });
  const tagsOf = async () => Object.fromEntries((await episodes()).map((e) => [e.session_id, e.tags]));

  it('bind adds tags, keeps the ones carried, counts matches; answers conform to the upstream OpenAPI', async () => {
    const r = await tag('bind', [ids['boat']!, ids['bread']!], ['hobby', 'weekend']);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ matched: 2, requested: 2 });
    expect(componentErrors('SuccessEnvelope_TagBindData_', r.body)).toEqual([]);
    const again = await tag('bind', [ids['boat']!, 'f'.repeat(24)], ['weekend', 'outdoors', 'outdoors']);
    expect(again.body.data).toEqual({ matched: 1, requested: 2 });
    expect(await tagsOf()).toEqual({
      boat: ['hobby', 'weekend', 'outdoors'],
      bread: ['hobby', 'weekend'],
      chess: [],
    });
  });

  it('get and search filter on tags', async () => {
    const hobby = await episodes({ filters: { tags: 'hobby' } });
    expect(hobby.map((e) => e.session_id).sort()).toEqual(['boat', 'bread']);
    const either = await episodes({ filters: { tags: { in: ['outdoors', 'nothing'] } } });
    expect(either.map((e) => e.session_id)).toEqual(['boat']);
    const not = await episodes({ filters: { tags: { ne: 'hobby' } } });
    expect(not.map((e) => e.session_id)).toEqual(['chess']);
    const found = await post('search', {
      user_id: 'nina',
      query: 'sailing boat hull sourdough bread chess',
      method: 'keyword',
      filters: { AND: [{ tags: 'weekend' }, { session_id: { ne: 'boat' } }] },
    });
    expect(found.status).toBe(200);
    expect(found.body.data.episodes.map((e: any) => e.session_id)).toEqual(['bread']);
    expect(found.body.data.episodes[0].tags).toEqual(['hobby', 'weekend']);
    expect(componentErrors('SuccessEnvelope_SearchData_', found.body)).toEqual([]);
    const bad = await getEpisodes({ filters: { tags: { gt: 'a' } } });
    expect(bad.status).toBe(422);
  });

  it('unbind removes only the given tags; replace overwrites; an empty replace clears', async () => {
    const u = await tag('unbind', [ids['boat']!, ids['chess']!], ['weekend', 'never-bound']);
    expect(u.body.data).toEqual({ matched: 2, requested: 2 });
    expect(componentErrors('SuccessEnvelope_TagUnbindData_', u.body)).toEqual([]);
    expect((await tagsOf())['boat']).toEqual(['hobby', 'outdoors']);
    const r = await tag('replace', [ids['bread']!, ids['chess']!], ['kitchen', 'kitchen', 'games']);
    expect(r.body.data).toEqual({ matched: 2, requested: 2 });
    expect(componentErrors('SuccessEnvelope_TagReplaceData_', r.body)).toEqual([]);
    expect(await tagsOf()).toEqual({
      boat: ['hobby', 'outdoors'],
      bread: ['kitchen', 'games'],
      chess: ['kitchen', 'games'],
    });
    await tag('replace', [ids['chess']!], []);
    expect((await tagsOf())['chess']).toEqual([]);
  });

  it('bad input is a 422 and changes nothing; another tenant matches nothing', async () => {
    const before = await tagsOf();
    for (const body of [
      { memory_type: 'profile', memory_ids: [ids['boat']], tags: ['x'] },
      { memory_type: 'episode', memory_ids: [], tags: ['x'] },
      { memory_type: 'episode', memory_ids: ['nope'], tags: ['x'] },
      { memory_type: 'episode', memory_ids: [ids['boat']], tags: ['x'.repeat(33)] },
      { memory_type: 'episode', memory_ids: [ids['boat']], tags: [] },
    ]) {
      const r = await post('tag/bind', body);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('InvalidParameter');
    }
    const other = await s.key('tenant-b');
    const r = await post(
      'tag/bind',
      { memory_type: 'episode', memory_ids: [ids['boat']], tags: ['x'] },
      other,
    );
    expect(r.body.data).toEqual({ matched: 0, requested: 1 });
    expect(await tagsOf()).toEqual(before);
  });

  it('a memory holds at most 100 tags: a bind past that does not match it', async () => {
    const many = Array.from({ length: 100 }, (_, i) => `t${i}`);
    expect((await tag('replace', [ids['chess']!], many)).body.data.matched).toBe(1);
    const r = await tag('bind', [ids['chess']!, ids['boat']!], ['one-more']);
    expect(r.body.data).toEqual({ matched: 1, requested: 2 });
    expect((await tagsOf())['chess']).toHaveLength(100);
  });

  it('edit adds, updates and deletes profile items, reports each, and advances the version', async () => {
    const add = await post('edit', {
      user_id: 'nina',
      operations: [
        {
          action: 'add',
          type: 'explicit_info',
          data: { category: 'hobby', description: 'Sails on the lake', evidence: 'said so' },
          reason: 'stated',
        },
        {
          action: 'add',
          type: 'implicit_traits',
          data: { trait: 'patient', description: 'Plays long games' },
        },
      ],
    });
    expect(add.status).toBe(200);
    expect(componentErrors('SuccessEnvelope_EditData_', add.body)).toEqual([]);
    const d = add.body.data;
    expect(d).toMatchObject({ user_id: 'nina', applied: 2 });
    const [ei, it] = d.results.map((r: any) => r.new_item_id);
    expect(ei).toMatch(/^ei_[0-9a-f]{24}$/);
    expect(it).toMatch(/^it_[0-9a-f]{24}$/);
    const added = d.profile.explicit_info.find((e: any) => e.item_id === ei);
    expect(added).toMatchObject({
      category: 'hobby',
      description: 'Sails on the lake',
      evidence: 'said so',
      reason: 'stated',
    });
    const v = d.version as number;

    const edit = await post('edit', {
      user_id: 'nina',
      operations: [
        { action: 'update', type: 'explicit_info', item_id: ei, data: { description: 'Sails on the sea' } },
        { action: 'delete', type: 'implicit_traits', item_id: it },
        { action: 'delete', type: 'implicit_traits', item_id: `it_${'0'.repeat(24)}` },
      ],
    });
    expect(edit.body.data.applied).toBe(2);
    expect(edit.body.data.version).toBe(v + 1);
    expect(edit.body.data.results.map((r: any) => r.status)).toEqual(['applied', 'applied', 'rejected']);
    expect(edit.body.data.results[2].error).toContain('no implicit_traits item');
    const profile = (await post('get', { memory_type: 'profile', user_id: 'nina' })).body.data.profiles[0];
    const item = profile.profile_data.explicit_info.find((e: any) => e.item_id === ei);
    expect(item).toMatchObject({ category: 'hobby', description: 'Sails on the sea' });
    expect(profile.profile_data.implicit_traits.find((e: any) => e.item_id === it)).toBeUndefined();

    // nothing applicable: nothing written, the version stays
    const none = await post('edit', {
      user_id: 'nina',
      operations: [{ action: 'delete', type: 'explicit_info', item_id: `ei_${'0'.repeat(24)}` }],
    });
    expect(none.body.data).toMatchObject({ applied: 0, version: v + 1 });
  });

  it('edit rejects malformed operations with 422 and changes nothing', async () => {
    const profileOf = async () =>
      (await post('get', { memory_type: 'profile', user_id: 'nina' })).body.data.profiles[0].profile_data;
    const before = await profileOf();
    const zeros = '0'.repeat(24);
    for (const op of [
      { action: 'add', type: 'explicit_info', data: { description: 'no category' } },
      {
        action: 'add',
        type: 'explicit_info',
        item_id: `ei_${zeros}`,
        data: { category: 'a', description: 'b' },
      },
      { action: 'update', type: 'explicit_info', item_id: `it_${zeros}`, data: { description: 'x' } },
      { action: 'update', type: 'implicit_traits', item_id: `it_${zeros}`, data: {} },
      { action: 'rename', type: 'explicit_info' },
    ]) {
      const r = await post('edit', {
        user_id: 'nina',
        operations: [
          { action: 'add', type: 'explicit_info', data: { category: 'c', description: 'fine' } },
          op,
        ],
      });
      expect(r.status).toBe(422);
    }
    expect(await profileOf()).toEqual(before);
  });
});
