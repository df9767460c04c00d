import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchInput } from '../../src/contract/search.js';
import type { Db, Sql } from '../../src/core/db.js';
import { silentLogger } from '../../src/core/log.js';
import type { Embedder } from '../../src/core/ports.js';
import { SearchService } from '../../src/engine/search/service.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, seedEpisode } from './seed.js';

/**
 * A search's question is prepared before anything is ranked: its lexemes (a statement)
 * and its embedding are computed at once, and the vector route sends no lexemes statement
 * unless the question asks about the current state (the newest fact of a slot wins, which
 * reads the question's lexemes).
 */
const LEXEMES = `SELECT lexeme FROM unnest(to_tsvector('english', $1))`;

interface Watched {
  service: SearchService;
  /** The store as the service sees it (lexemes statements counted). */
  db: Db;
  /** Lexemes statements sent for this text (the lexicon reads its own word lists too). */
  lexemes: (text: string) => number;
  /** For each embedding asked for: whether a lexemes statement was then still running. */
  overlapped: boolean[];
}

function watched(f: Fixture): Watched {
  const sent = new Map<unknown, number>();
  let running = 0;
  const overlapped: boolean[] = [];
  const query: Sql['query'] = async (text, params) => {
    if (!text.startsWith(LEXEMES)) return f.db.query(text, params);
    sent.set(params?.[0], (sent.get(params?.[0]) ?? 0) + 1);
    running++;
    try {
      return await f.db.query(text, params);
    } finally {
      running--;
    }
  };
  const db = Object.assign(Object.create(f.db) as Db, { query });
  const embedder: Embedder = Object.assign(Object.create(f.embedder) as Embedder, {
    embed: (texts: string[]) => {
      overlapped.push(running > 0);
      return f.embedder.embed(texts);
    },
  });
  const service = new SearchService({ db, embedder, log: silentLogger, vectorIndex: f.index });
  return { service, db, lexemes: (text) => sent.get(text) ?? 0, overlapped };
}

const input = (query: string, method: string) =>
  SearchInput.parse({ query, method, user_id: 'nora', top_k: 5 });

describe.each(DRIVERS)('preparing the question [%s]', (driver) => {
  let f: Fixture;

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['nora'],
      subject: 'moving house',
      facts: ['Nora lives in Ghent.', 'Nora moved to Ghent from Bruges.'],
    });
    await seedEpisode(f, {
      owners: ['nora'],
      subject: 'a garden',
      facts: ['Nora grows leeks and beans in her garden.'],
    });
  });
  afterAll(async () => {
    await f?.database.drop();
  });

  it('vector route: no lexemes statement, the same hits', async () => {
    const w = watched(f);
    const got = await w.service.search({ tenantId: 'tenant-a' }, input('vegetables in the garden', 'vector'));
    expect(w.lexemes('vegetables in the garden')).toBe(0);
    const plain = await f.search.search(
      { tenantId: 'tenant-a' },
      input('vegetables in the garden', 'vector'),
    );
    expect(got.episodes.map((e) => [e.id, e.score])).toEqual(plain.episodes.map((e) => [e.id, e.score]));
    expect(got.episodes.length).toBeGreaterThan(0);
  });

  it('vector route, a question about the current state: its lexemes are read', async () => {
    const w = watched(f);
    await w.service.search({ tenantId: 'tenant-a' }, input('where does Nora live now', 'vector'));
    expect(w.lexemes('where does Nora live now')).toBe(1);
  });

  it('hybrid: the embedding is asked for while the lexemes statement runs', async () => {
    const w = watched(f);
    const got = await w.service.search({ tenantId: 'tenant-a' }, input('leeks and beans', 'hybrid'));
    expect(w.lexemes('leeks and beans')).toBe(1);
    expect(w.overlapped).toEqual([true]);
    expect(got.episodes[0]?.subject).toBe('a garden');
  });

  it('an embedder that fails, even before returning a promise: hybrid falls back to keyword', async () => {
    const embedder: Embedder = Object.assign(Object.create(f.embedder) as Embedder, {
      embed: () => {
        throw new Error('embedder down');
      },
    });
    const service = new SearchService({ db: f.db, embedder, log: silentLogger, vectorIndex: f.index });
    const got = await service.search({ tenantId: 'tenant-a' }, input('leeks and beans', 'hybrid'));
    expect(got.metadata).toMatchObject({ method: 'keyword', degraded: true });
    expect(got.episodes[0]?.subject).toBe('a garden');
    await expect(service.search({ tenantId: 'tenant-a' }, input('leeks', 'vector'))).rejects.toThrow(
      'embedder down',
    );
  });

  it('an embedder that fails: the lexemes already read serve the keyword route, read once', async () => {
    const w = watched(f);
    const embedder: Embedder = Object.assign(Object.create(f.embedder) as Embedder, {
      embed: () => Promise.reject(new Error('embedder down')),
    });
    const service = new SearchService({ db: w.db, embedder, log: silentLogger, vectorIndex: f.index });
    const got = await service.search({ tenantId: 'tenant-a' }, input('beans in the garden', 'hybrid'));
    expect(got.metadata).toMatchObject({ method: 'keyword', degraded: true });
    expect(got.episodes[0]?.subject).toBe('a garden');
    expect(w.lexemes('beans in the garden')).toBe(1);
  });

  it('a failing lexemes statement fails the search: it is not an embedder failure', async () => {
    let failures = 1;
    const query: Sql['query'] = async (text, params) => {
      if (text.startsWith(LEXEMES) && params?.[0] === 'leeks in the garden' && failures-- > 0)
        throw new Error('connection reset while reading lexemes');
      return f.db.query(text, params);
    };
    const db = Object.assign(Object.create(f.db) as Db, { query });
    const service = new SearchService({ db, embedder: f.embedder, log: silentLogger, vectorIndex: f.index });
    await expect(
      service.search({ tenantId: 'tenant-a' }, input('leeks in the garden', 'hybrid')),
    ).rejects.toThrow('connection reset while reading lexemes');
    // The next search of the same question is answered in full, not degraded.
    const got = await service.search({ tenantId: 'tenant-a' }, input('leeks in the garden', 'hybrid'));
    expect(got.metadata).toMatchObject({ method: 'hybrid', degraded: false });
  });

  it('keyword: lexemes only, no embedding', async () => {
    const w = watched(f);
    const got = await w.service.search({ tenantId: 'tenant-a' }, input('leeks', 'keyword'));
    expect(w.lexemes('leeks')).toBe(1);
    expect(w.overlapped).toEqual([]);
    expect(got.episodes[0]?.subject).toBe('a garden');
  });
});
