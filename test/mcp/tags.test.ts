import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { MIN, T0, user } from '../helpers/messages.js';
import { call, httpClient, ok, text } from './helpers.js';

/** The tag and profile-edit tools over a real MCP client (ENGRAM_MCP_TOOLS=all). */
describe.each(DRIVERS)('MCP tag and profile tools [%s]', (driver) => {
  let s: TestServer;
  let a: Client;
  let episodeId: string;

  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_MCP_TOOLS: 'all' });
    a = await httpClient(s.url, await s.key('tenant-a'));
    const note = 'I started learning the cello with a teacher in Ghent';
    await s.call('POST', '/api/v2/memory/add', {
      key: await s.key('tenant-a'),
      body: { session_id: 'music', messages: [user('ivo', note, T0), user('ivo', `${note}.`, T0 + MIN)] },
    });
    await ok(a, 'flush_session', { session_id: 'music' });
    episodeId = (await ok(a, 'get_memories', { memory_type: 'episode', user_id: 'ivo' })).episodes[0].id;
  });
  afterAll(async () => {
    await a?.close();
    await s?.close();
  });

  it('tags, filters on tags, untags and retags', async () => {
    const tagged = await call(a, 'tag_memories', {
      memory_type: 'episode',
      memory_ids: [episodeId],
      tags: ['music'],
    });
    expect(tagged.structuredContent).toEqual({ matched: 1, requested: 1 });
    expect(text(tagged)).toContain('Tagged 1 of 1');
    const got = await ok(a, 'get_memories', {
      memory_type: 'episode',
      user_id: 'ivo',
      filters: { tags: 'music' },
    });
    expect(got.episodes.map((e: any) => e.tags)).toEqual([['music']]);
    await ok(a, 'retag_memories', {
      memory_type: 'episode',
      memory_ids: [episodeId],
      tags: ['lessons', 'ghent'],
    });
    await ok(a, 'untag_memories', { memory_type: 'episode', memory_ids: [episodeId], tags: ['ghent'] });
    const after = await ok(a, 'get_memories', { memory_type: 'episode', user_id: 'ivo' });
    expect(after.episodes[0].tags).toEqual(['lessons']);
    const none = await ok(a, 'get_memories', {
      memory_type: 'episode',
      user_id: 'ivo',
      filters: { tags: 'music' },
    });
    expect(none.episodes).toEqual([]);
    const bad = await call(a, 'tag_memories', { memory_type: 'episode', memory_ids: [episodeId], tags: [] });
    expect(bad.isError).toBe(true);
  });

  it('edits the profile and reports each operation', async () => {
    const r = await call(a, 'edit_profile', {
      user_id: 'ivo',
      operations: [
        { action: 'add', type: 'explicit_info', data: { category: 'hobby', description: 'Plays the cello' } },
        { action: 'delete', type: 'explicit_info', item_id: `ei_${'0'.repeat(24)}` },
      ],
    });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ user_id: 'ivo', applied: 1 });
    expect(text(r)).toContain('Applied 1 of 2 edits');
    expect(text(r)).toContain('Rejected #1 (delete)');
    const profile = await ok(a, 'get_memories', { memory_type: 'profile', user_id: 'ivo' });
    expect(JSON.stringify(profile.profiles[0].profile_data.explicit_info)).toContain('Plays the cello');
  });
});
