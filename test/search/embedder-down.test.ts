import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import { silentLogger } from '../../src/core/log.js';
import type { Embedder } from '../../src/core/ports.js';
import { contextUnits, EMBEDDER_UNAVAILABLE, KEYWORD_UNITS } from '../../src/engine/search/context.js';
import { SearchService } from '../../src/engine/search/service.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, seedMessage, T0 } from './seed.js';

/**
 * When the query cannot be embedded, hybrid and agentic answer by the keyword route (raw
 * BM25 scores), say so in the metadata, and recall weighs such an answer's turns as a keyword
 * answer's; vector fails with the embedder's error.
 */
describe.each(DRIVERS)('search with the embedder down [%s]', (driver) => {
  let f: Fixture;
  let down: SearchService;
  let turn: string;
  const run = (input: Record<string, unknown>) =>
    down.search({ tenantId: 'tenant-a' }, SearchInput.parse(input));

  beforeAll(async () => {
    f = await openFixture(driver);
    const failing: Embedder = {
      id: f.embedder.id,
      dimensions: f.embedder.dimensions,
      embed: async () => {
        throw new Error('embedder unreachable');
      },
    };
    down = new SearchService({ db: f.db, embedder: failing, log: silentLogger, vectorIndex: f.index });
    turn = await seedMessage(f, {
      session: 's1',
      sender: 'lena',
      content: 'I repair old clocks in my workshop, clocks are my thing',
      state: 'extracted',
      ts: T0,
    });
  });
  afterAll(() => f.database.drop());

  it('hybrid answers by the keyword route and says so', async () => {
    const r = await run({ user_id: 'lena', query: 'What do I repair?', method: 'hybrid' });
    expect(r.messages.map((m) => m.id)).toEqual([turn]);
    expect(r.metadata).toMatchObject({
      method: 'keyword',
      degraded: true,
      degraded_reason: EMBEDDER_UNAVAILABLE,
    });
  });

  it('agentic answers by the keyword route, and recall weighs its turns as a keyword answer’s', async () => {
    const r = await run({ user_id: 'lena', query: 'What do I repair?', method: 'agentic' });
    expect(r.metadata).toMatchObject({
      method: 'agentic',
      degraded: true,
      degraded_reason: EMBEDDER_UNAVAILABLE,
    });
    const score = r.messages.find((m) => m.id === turn)!.score;
    const unit = contextUnits(r).find((u) => u.id === turn)!;
    expect(unit.score).toBeCloseTo(score * KEYWORD_UNITS.messageWeight);
  });

  it('vector fails with the embedder’s error', async () => {
    await expect(run({ user_id: 'lena', query: 'What do I repair?', method: 'vector' })).rejects.toThrow(
      'embedder unreachable',
    );
  });
});
