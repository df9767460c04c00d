import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { T0, user } from '../helpers/messages.js';

/**
 * The search warm-up a serving process runs once open (engram mcp before it serves tool
 * calls, serve in the background): it searches a tenant that cannot exist, with the offline
 * embedder, and changes nothing; searches after it answer as before.
 */
describe.each(DRIVERS)('search warm-up [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const lines: string[] = [];
  const counts = async () => {
    const tables = await s.engram.db.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    const out: Record<string, number> = {};
    for (const { name } of tables)
      out[name] = (await s.engram.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${name}"`))[0]!.n;
    return out;
  };

  beforeAll(async () => {
    s = await startTestServer(driver, {}, { log: createLogger('warn', (l) => lines.push(l)) });
    key = await s.key('tenant-a');
    await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'bees',
        messages: [
          user('nell', 'My two beehives swarmed in May and I caught one swarm in a box', T0, 'Nell'),
        ],
      },
    });
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'bees' } });
  });
  afterAll(() => s?.close());

  it('searches nothing, writes nothing, logs no failure', async () => {
    const search = () =>
      s.call('POST', '/api/v2/memory/search', { key, body: { query: 'beehive swarm', user_id: 'nell' } });
    const before = await search();
    const rows = await counts();
    expect(rows['episodes']).toBeGreaterThan(0);
    const ms = await s.engram.warmUp();
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(await counts()).toEqual(rows);
    expect(lines).toEqual([]);
    const after = await search();
    expect(after.status).toBe(200);
    expect(after.body.data.episodes.map((e: any) => [e.id, e.score])).toEqual(
      before.body.data.episodes.map((e: any) => [e.id, e.score]),
    );
    expect(after.body.data.episodes.length).toBeGreaterThan(0);
  });
});
