import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';

const at = (minute: number) => new Date(Date.UTC(2025, 4, 6, 18, minute)).toISOString();

/**
 * v1 Cloud keeps each message's v1 fields (v1_messages) beside the engine's copy. Deleting
 * an owner or a group deletes both: no v1 read, search or migration sees them again, and
 * `engram purge` removes the v1 rows with the engine's.
 */
describe.each(DRIVERS)('deleting a v1 owner deletes their v1 messages [%s]', (driver) => {
  let s: TestServer;
  let v1: string;
  const post = (path: string, body: unknown) => s.call('POST', path, { key: v1, body });
  const say = (message_id: string, sender: string, content: string, minute: number, group = 'rooftop') =>
    post('/api/v1/memories', { message_id, create_time: at(minute), sender, content, group_id: group });
  const rawIds = async (user: string) =>
    (
      await post('/api/v1/memories/search', {
        user_id: user,
        query: 'garden rooftop',
        retrieve_method: 'keyword',
      })
    ).body.result.raw_messages.map((m: { message_id: string }) => m.message_id);
  const v1Rows = async () =>
    (
      await s.engram.db.query<{ message_id: string }>(
        `SELECT message_id FROM v1_messages WHERE tenant_id = 'acme' ORDER BY message_id`,
      )
    ).map((r) => r.message_id);

  beforeAll(async () => {
    s = await startTestServer(driver);
    v1 = await s.key('acme', 'v1');
  });
  afterAll(() => s.close());

  it('delete by user_id and by group: gone from search and migration; purge removes the v1 rows', async () => {
    expect((await say('w-1', 'wanda', 'I grow tomatoes in my rooftop garden', 0)).status).toBe(200);
    expect((await say('w-2', 'wanda', 'The rooftop garden gate code is 2468', 1)).status).toBe(200);
    expect((await say('k-1', 'kofi', 'I water the rooftop garden on Sundays', 2)).status).toBe(200);
    expect((await say('k-2', 'kofi', 'Our garden shed in the yard needs paint', 3, 'yard')).status).toBe(200);
    expect(await rawIds('wanda')).toEqual(expect.arrayContaining(['w-1', 'w-2']));

    expect((await post('/api/v1/memories/delete', { user_id: 'wanda' })).status).toBe(204);
    expect((await post('/api/v1/memories/delete', { group_id: 'yard' })).status).toBe(204);
    expect(await rawIds('wanda')).toEqual([]);
    expect(await rawIds('kofi')).toEqual(['k-1']);

    // the same message id again stays forgotten: nothing is stored
    const again = await say('w-2', 'wanda', 'The rooftop garden gate code is 2468', 1);
    expect(again.body.result.status_info).toBe('accumulated');
    expect(await rawIds('wanda')).toEqual([]);

    // migration copies only the live message
    const counts = await s.engram.v1.migrate('acme', 100);
    expect(counts).toMatchObject({ total: 1, migrated: 1, batch: 1 });
    const copied = await s.engram.db.query<{ content: string }>(
      `SELECT content FROM messages WHERE tenant_id = 'acme' AND app_id = 'default' AND deleted_at IS NULL`,
    );
    expect(copied.map((r) => r.content)).toEqual(['I water the rooftop garden on Sundays']);

    expect(await v1Rows()).toEqual(['k-1', 'k-2', 'w-1', 'w-2']);
    const purged = await s.engram.memory.purge();
    expect(purged.v1_messages).toBe(3);
    expect(await v1Rows()).toEqual(['k-1']);
  });
});
