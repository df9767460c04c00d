import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DeleteByIdsInput, DeleteInput } from '../../src/contract/memory-write.js';
import { silentLogger } from '../../src/core/log.js';
import { type Engram, openEngram } from '../../src/engram.js';
import { createTestDatabase, DRIVERS, type TestDatabase } from '../helpers/drivers.js';
import { testConfig } from '../helpers/engram.js';
import { HashEmbedder } from '../helpers/hash-embedder.js';
import { MIN, T0, user } from '../helpers/messages.js';

/** An embedder that runs `next` (once) before it embeds: a write landing while a job embeds. */
class Interrupting extends HashEmbedder {
  next: (() => Promise<void>) | undefined;
  override async embed(texts: readonly string[]) {
    const run = this.next;
    this.next = undefined;
    if (run) await run();
    return super.embed(texts);
  }
}

/**
 * The `memory.refresh` job re-derives an edited episode's facts. It embeds them before its
 * transaction; a delete acknowledged meanwhile (of the episode, or of one of its owners)
 * must hold when the job writes: no live fact of a deleted episode, none owned by a deleted
 * owner, and the statistics count none of them.
 */
describe.each(DRIVERS)('an episode refresh racing a delete [%s]', (driver) => {
  let t: TestDatabase;
  let e: Engram;
  const config = testConfig();
  const embedder = new Interrupting(64);
  const ctx = { tenantId: 't' };
  const scope = { app_id: 'default', project_id: 'default' };
  afterAll(async () => {
    await e?.close();
    await t?.drop();
    rmSync(config.dataDir, { recursive: true, force: true });
  });

  /** A fresh episode of the two owners, edited so that a refresh job is queued. */
  const edited = async (session: string): Promise<string> => {
    await e.memory.add(ctx, {
      ...scope,
      session_id: session,
      async_mode: false,
      messages: [
        user('ann', 'I paddled my kayak across the lake this morning', T0),
        user('bo', 'I fixed the brakes of my old bicycle', T0 + MIN),
      ],
    });
    await e.memory.flush(ctx, { ...scope, session_id: session });
    await e.queue.drain();
    const [ep] = await t.db.query<{ id: string }>(
      'SELECT id FROM episodes WHERE session_id = $1 AND deleted_at IS NULL',
      [session],
    );
    await e.memory.update(ctx, {
      ...scope,
      memory_type: 'episode',
      memory_id: ep!.id,
      patch: {
        episode: 'Ann sold her old kayak at the market. Bo bought a red bicycle instead of fixing his.',
      },
    });
    return ep!.id;
  };
  const liveFacts = (episode: string) =>
    t.db.query<{ owner_ids: string[] }>(
      'SELECT owner_ids FROM atomic_facts WHERE episode_id = $1 AND deleted_at IS NULL',
      [episode],
    );
  const counted = async (owner: string) => {
    const rows = await t.db.query<{ docs: number }>(
      `SELECT coalesce(sum(docs), 0)::int AS docs FROM search_counts WHERE kind = 'fact' AND term = '' AND owner_id = $1`,
      [owner],
    );
    return rows[0]!.docs;
  };

  it('a deleted episode gets no live facts back', async () => {
    t = await createTestDatabase(driver);
    e = await openEngram(config, { command: 'test', log: silentLogger, db: t.db, workers: false, embedder });
    const episode = await edited('s1');
    embedder.next = async () => {
      await e.memory.deleteByIds(
        ctx,
        DeleteByIdsInput.parse({ memory_type: 'episode', memory_ids: [episode] }),
      );
    };
    await e.queue.drain();
    expect(embedder.next).toBeUndefined(); // the delete ran while the job embedded
    expect(await liveFacts(episode)).toEqual([]);
    expect(await counted('ann')).toBe(0);
  });

  it('an owner deleted meanwhile owns none of the new facts', async () => {
    const episode = await edited('s2');
    embedder.next = async () => {
      await e.memory.delete(ctx, DeleteInput.parse({ ...scope, user_id: 'bo' }));
    };
    await e.queue.drain();
    expect(embedder.next).toBeUndefined();
    const facts = await liveFacts(episode);
    expect(facts.length).toBeGreaterThan(0);
    for (const f of facts) expect(f.owner_ids).toEqual(['ann']);
    expect(await counted('bo')).toBe(0);
  });
});
