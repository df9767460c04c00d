import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import type { AddInput, FlushInput } from '../../src/contract/memory-write.js';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import { SearchService } from '../../src/engine/search/service.js';
import { type Engram, openEngram } from '../../src/engram.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';
import { testConfig } from '../helpers/engram.js';
import { HashEmbedder } from '../helpers/hash-embedder.js';
import { MIN, multiParty, T0, user } from '../helpers/messages.js';

/** Search over memory written by the real add / flush path (offline extractor). */
describe.each(DRIVERS)('memory search over the memory engine [%s]', (driver) => {
  let database: TestDatabase;
  let engram: Engram;
  let search: SearchService;
  let config: Config;
  const ctx = { tenantId: 'tenant-a' };
  const run = (input: Record<string, unknown>) => search.search(ctx, SearchInput.parse(input));
  const add = (body: Record<string, unknown>) =>
    engram.memory.add(ctx, {
      app_id: 'default',
      project_id: 'default',
      async_mode: false,
      ...body,
    } as AddInput);

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    config = testConfig();
    engram = await openEngram(config, {
      command: 'test',
      log: silentLogger,
      db: database.db,
      embedder: new HashEmbedder(64),
      workers: false,
    });
    search = new SearchService({ db: engram.db, embedder: engram.embedder, log: silentLogger });
  });
  afterAll(async () => {
    await engram.close();
    await database.drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('finds what was just added as unprocessed messages, then as episodes once flushed', async () => {
    const added = await add({ session_id: 'lisbon', messages: multiParty(T0) });
    expect(added.data.status).toBe('accumulated');
    const ids = added.data.message_ids as string[];

    const before = await run({ user_id: 'alice', query: 'moved to Lisbon' });
    expect(before.episodes).toEqual([]);
    expect(before.unprocessed_messages[0]!.id).toBe(ids[0]);
    expect(before.unprocessed_messages[0]!.content).toContain('Lisbon');
    const pinned = await run({ user_id: 'alice', query: 'anything', filters: { session_id: 'lisbon' } });
    expect(pinned.unprocessed_messages.map((m) => m.id)).toEqual(ids);

    await engram.memory.flush(ctx, {
      app_id: 'default',
      project_id: 'default',
      session_id: 'lisbon',
    } as FlushInput);
    for (const method of ['keyword', 'vector', 'hybrid', 'agentic']) {
      const r = await run({ user_id: 'alice', query: 'When did Alice move to Lisbon?', method });
      expect(r.unprocessed_messages).toEqual([]);
      expect(r.episodes.length).toBeGreaterThan(0);
      const e = r.episodes[0]!;
      expect(e.sender_ids).toEqual(expect.arrayContaining(['alice', 'bob']));
      for (const id of e.source_message_ids) expect(ids).toContain(id);
      const fact = e.atomic_facts[0]!;
      expect(fact.content).toMatch(/Lisbon/);
      for (const id of fact.source_message_ids) expect(ids).toContain(id);
    }
    // the episode is visible to every human sender, not to the assistant as a user
    expect((await run({ user_id: 'bob', query: 'nurse in Porto' })).episodes.length).toBeGreaterThan(0);
    expect((await run({ user_id: 'helper-bot', query: 'Lisbon' })).episodes).toEqual([]);
  });

  it('an async add is searchable before any worker ran', async () => {
    const r = await add({
      session_id: 'async',
      async_mode: true,
      messages: [user('carol', 'My violin lesson moved to Thursday', T0 + 10 * MIN)],
    });
    expect(r.httpStatus).toBe(202);
    const found = await run({ user_id: 'carol', query: 'violin lesson' });
    expect(found.unprocessed_messages.map((m) => m.content)).toEqual(['My violin lesson moved to Thursday']);
  });
});
