import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { searcher, startTestServer, type TestServer, topFact } from '../helpers/engram.js';
import { assistant, DAY, MIN, T0, user } from '../helpers/messages.js';
import { httpClient, ok } from '../mcp/helpers.js';

/**
 * A new user, offline (offline extractor and embedder), over real HTTP and MCP: what she
 * tells the assistant about her dog, her diet, an allergy and the city she lives in (then
 * moves from) is in her profile, and each question about it finds its fact first, by
 * hybrid and by keyword search (for where she lives now, the newer fact). A note not yet
 * extracted is found by meaning, and the raw turns stay retrievable after extraction.
 */
describe.each(DRIVERS)('remembering a new user [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let mcp: Client;
  const add = (session_id: string, messages: unknown[]) =>
    s.call('POST', '/api/v2/memory/add', { key, body: { session_id, messages } });
  const search = searcher(
    () => s,
    () => key,
    'alice',
  );

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    mcp = await httpClient(s.url, key);
    expect(
      (
        await add('first-chat', [
          user('alice', 'Hi! Quick context: I have a dog named Miso.', T0, 'Alice'),
          assistant('helper', 'Nice to meet you and Miso! How can I help today?', T0 + MIN),
          user('alice', "I'm vegetarian, so please never suggest meat dishes.", T0 + 2 * MIN, 'Alice'),
          user('alice', "Also, I'm allergic to peanuts.", T0 + 3 * MIN, 'Alice'),
          user('alice', 'I live in Lisbon, in a flat near the river.', T0 + 4 * MIN, 'Alice'),
          assistant('helper', 'Noted! Lisbon has lovely vegetarian places.', T0 + 5 * MIN),
        ])
      ).status,
    ).toBe(200);
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'first-chat' } });
    const later = T0 + 60 * DAY;
    await add('moving', [
      user('alice', 'Big news: I moved to Porto last week!', later, 'Alice'),
      assistant('helper', 'Congratulations on the move!', later + MIN),
    ]);
    await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'moving' } });
    // Said, not yet extracted (no boundary, no flush).
    await add('notes', [user('alice', "Carol's cat is called Pixel.", later + DAY, 'Alice')]);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await s?.close();
  });

  it('keeps the pet, the diet, the allergy and the current city in the profile, without chat filler', async () => {
    const r = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'profile', user_id: 'alice' },
    });
    expect(r.status).toBe(200);
    const items: { category: string; description: string }[] =
      r.body.data.profiles[0].profile_data.explicit_info;
    const of = (category: string) =>
      items
        .filter((i) => i.category === category)
        .map((i) => i.description)
        .join(' | ');
    expect(of('pet')).toContain('dog named Miso');
    expect(of('diet')).toMatch(/vegetarian/);
    expect(of('allergy')).toMatch(/allergic to peanuts/);
    expect(of('location')).toMatch(/Porto/);
    expect(of('location')).not.toMatch(/Lisbon/);
    for (const i of items) expect(i.description).not.toMatch(/please|quick context/i);
  });

  it.each(['hybrid', 'keyword'])('each question finds its fact first (%s)', async (method) => {
    const cases: [string, RegExp][] = [
      ['What pet does Alice have?', /dog named Miso/],
      ['What diet does Alice follow?', /vegetarian/],
      ['Does Alice have any allergies?', /allergic to peanuts/],
      ['Where does Alice live now?', /Porto/],
    ];
    for (const [query, want] of cases) expect(topFact(await search({ query, method })), query).toMatch(want);
  });

  it.each(['hybrid', 'keyword'])(
    "asked in other words, finds the pet first and ranks the current city's episode above the old one (%s)",
    async (method) => {
      expect(topFact(await search({ query: 'what pet does the user have', method }))).toMatch(
        /dog named Miso/,
      );
      const live = await search({ query: 'where does alice live now', method });
      expect(topFact(live)).toMatch(/Porto/);
      const cities = live.episodes
        .map((e: any) => e.atomic_facts.map((f: any) => f.content).join(' '))
        .filter((t: string) => /Porto|Lisbon/.test(t));
      expect(cities[0]).toMatch(/Porto/);
    },
  );

  it('recall finds a note not yet extracted by meaning, beside the extracted facts', async () => {
    const r = await ok(mcp, 'recall', { query: 'pet', user_id: 'alice', max_tokens: 300 });
    expect(r.context).toContain('Pixel');
    expect(r.context).toContain('Miso');
    expect(r.unprocessed_messages.map((m: any) => m.content)).toContain("Carol's cat is called Pixel.");
    expect(Math.ceil(r.context.length / 4)).toBeLessThanOrEqual(300);
    // the raw turns stay retrievable after extraction
    const turns = await search({ query: 'flat near the river' });
    expect(turns.messages.map((m: any) => m.content)).toContain(
      'I live in Lisbon, in a flat near the river.',
    );
  });
});
