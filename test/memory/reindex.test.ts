import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/core/log.js';
import { reindex } from '../../src/engine/reindex.js';
import { VectorConfigError } from '../../src/engine/vector-index.js';
import { openEngram } from '../../src/engram.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';
import { testConfig } from '../helpers/engram.js';
import { HashEmbedder } from '../helpers/hash-embedder.js';
import { MIN, T0, user } from '../helpers/messages.js';

describe.each(DRIVERS)('changing the embedding model [%s]', (driver) => {
  let t: TestDatabase;
  const config = testConfig();
  afterAll(async () => {
    await t?.drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  it('refuses to start with another embedder, and reindex switches every memory over', async () => {
    t = await createTestDatabase(driver);
    const open = (dims: number) =>
      openEngram(config, {
        command: 'test',
        log: silentLogger,
        db: t.db,
        prepareSearch: true,
        embedder: new HashEmbedder(dims),
      });
    const first = await open(64);
    const ctx = { tenantId: 't' };
    await first.memory.add(ctx, {
      app_id: 'default',
      project_id: 'default',
      session_id: 's',
      async_mode: false,
      messages: [
        user('u', 'I keep three beehives in my garden', T0),
        user('u', 'The honey is dark', T0 + MIN),
      ],
    });
    await first.memory.flush(ctx, { app_id: 'default', project_id: 'default', session_id: 's' });
    await first.close();

    await expect(open(32)).rejects.toThrow(VectorConfigError);
    await expect(open(32)).rejects.toThrow(/engram reindex/);

    const progress: number[] = [];
    const result = await reindex(t.db, new HashEmbedder(32), (p) => progress.push(p.done));
    expect(result.switched).toBe(true);
    expect(result.embedded).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(result.embedded);
    const again = await reindex(t.db, new HashEmbedder(32));
    expect(again).toEqual({ embedded: 0, switched: false });

    const second = await open(32);
    try {
      const r = await second.search.search(ctx, {
        app_id: 'default',
        project_id: 'default',
        user_id: 'u',
        query: 'beehives in the garden',
        method: 'vector',
        top_k: 5,
        include_profile: false,
        with_readable_episode: false,
        enable_llm_rerank: false,
      });
      expect(r.episodes.length).toBeGreaterThan(0);
      const dims = await t.db.query<{ d: number }>(
        'SELECT vector_dims(embedding) AS d FROM episodes LIMIT 1',
      );
      expect(dims[0]!.d).toBe(32);
    } finally {
      await second.close();
    }
  });
});
