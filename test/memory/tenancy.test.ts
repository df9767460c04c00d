import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { multiParty } from '../helpers/messages.js';

describe.each(DRIVERS)('tenant isolation [%s]', (driver) => {
  let s: TestServer;
  let a: string;
  let b: string;
  let episodeId: string;
  let profile: any;
  let caseId: string;
  const post = (key: string, path: string, body: unknown) =>
    s.call('POST', `/api/v2/memory/${path}`, { key, body });

  beforeAll(async () => {
    s = await startTestServer(driver);
    a = await s.key('tenant-a');
    b = await s.key('tenant-b');
    await post(a, 'add', { session_id: 'shared-name', messages: multiParty() });
    await post(a, 'flush', { session_id: 'shared-name' });
    episodeId = (await post(a, 'get', { memory_type: 'episode', user_id: 'alice' })).body.data.episodes[0].id;
    profile = (await post(a, 'get', { memory_type: 'profile', user_id: 'alice' })).body.data.profiles[0];
    caseId = (await post(a, 'get', { memory_type: 'agent_case', agent_id: 'helper-bot' })).body.data
      .agent_cases[0].id;
  });
  afterAll(() => s.close());

  it("tenant B sees none of tenant A's memories", async () => {
    for (const [type, owner] of [
      ['episode', { user_id: 'alice' }],
      ['profile', { user_id: 'alice' }],
      ['agent_case', { agent_id: 'helper-bot' }],
    ] as const) {
      const r = await post(b, 'get', { memory_type: type, ...owner });
      expect(r.body.data.total_count).toBe(0);
    }
    expect((await post(b, 'flush', { session_id: 'shared-name' })).body.data.status).toBe('no_extraction');
  });

  it('tenant B cannot update, delete or rate them', async () => {
    expect(
      (
        await post(b, 'update', {
          memory_type: 'episode',
          memory_id: episodeId,
          patch: { summary: 'hacked' },
        })
      ).status,
    ).toBe(404);
    expect((await post(b, 'delete_by_ids', { memory_type: 'episode', memory_ids: [episodeId] })).status).toBe(
      200,
    );
    expect((await post(b, 'delete', { user_id: 'alice' })).body.data.count).toBe(0);
    expect((await post(b, 'delete', { session_id: 'shared-name' })).body.data.count).toBe(0);
    expect(
      (await post(b, 'feedback', { memory_type: 'episode', memory_id: episodeId, rating: 'positive' }))
        .status,
    ).toBe(404);
    expect(
      (await post(b, 'feedback', { memory_type: 'agent_case', memory_id: caseId, rating: 'negative' }))
        .status,
    ).toBe(404);
    const item = profile.profile_data.explicit_info[0] ?? profile.profile_data.implicit_traits[0];
    expect(
      (
        await post(b, 'feedback', {
          memory_type: 'profile',
          memory_id: profile.id,
          item_id: item.item_id,
          rating: 'positive',
        })
      ).status,
    ).toBe(404);
    // and tenant A's memories are intact
    const still = await post(a, 'get', { memory_type: 'episode', user_id: 'alice' });
    expect(still.body.data.episodes[0]).toMatchObject({ id: episodeId });
    expect(still.body.data.episodes[0].summary).not.toBe('hacked');
    expect((await post(a, 'get', { memory_type: 'profile', user_id: 'alice' })).body.data.total_count).toBe(
      1,
    );
  });
});
