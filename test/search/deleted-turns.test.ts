import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, MIN, T0, user } from '../helpers/messages.js';
import { httpClient, ok } from '../mcp/helpers.js';

/**
 * Raw turns are searchable beside the facts (`messages`, ranked `unprocessed_messages`,
 * recall's context). Once a session or an owner is deleted, their turns, extracted or
 * still buffered, are found by no search route and by no recall.
 */
const METHODS = ['keyword', 'vector', 'hybrid'] as const;

describe.each(DRIVERS)('deleted turns leave every search route and recall [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let mcp: Client;
  const post = async (path: string, body: unknown) => {
    const r = await s.call('POST', `/api/v2/memory/${path}`, { key, body });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };
  /** Everything a search or a recall answers, as text (the echoed query left out). */
  const answers = async (userId: string, query: string): Promise<string[]> => {
    const out: unknown[] = [];
    for (const method of METHODS) {
      const { metadata: _echo, ...hits } = await post('search', { query, user_id: userId, method });
      out.push(hits);
    }
    const { metadata: _meta, ...recalled } = await ok(mcp, 'recall', {
      query,
      user_id: userId,
      max_tokens: 2000,
    });
    out.push(recalled);
    return out.map((a) => JSON.stringify(a).replaceAll(query, ''));
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('acme');
    mcp = await httpClient(s.url, key);
    // rosa: one extracted conversation, one still buffered; rosa and ivan share a third
    await post('add', {
      session_id: 'r1',
      messages: [
        user('rosa', 'I restore an old harpsichord in my garage on weekends', T0),
        assistant('bot', 'What a lovely project.', T0 + MIN),
      ],
    });
    await post('flush', { session_id: 'r1' });
    await post('add', {
      session_id: 'r2',
      messages: [user('rosa', 'My grandmother bakes marzipan pigs every winter', T0 + 60 * MIN)],
    });
    await post('add', {
      session_id: 'shared',
      messages: [
        user('ivan', 'I repair a battered accordion for the village band', T0 + 120 * MIN),
        user('rosa', 'And I tune the band tambourine', T0 + 121 * MIN),
      ],
    });
    await post('flush', { session_id: 'shared' });
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await s?.close();
  });

  it('before any delete, each route and recall finds the turns', async () => {
    const turns = await post('search', { query: 'harpsichord garage', user_id: 'rosa', method: 'keyword' });
    expect(turns.messages.map((m: { content: string }) => m.content)).toContain(
      'I restore an old harpsichord in my garage on weekends',
    );
    for (const text of await answers('rosa', 'marzipan grandmother')) expect(text).toMatch(/marzipan/);
    for (const text of await answers('ivan', 'accordion village band')) expect(text).toMatch(/accordion/);
    const reply = await post('search', { query: 'lovely project', user_id: 'rosa', method: 'keyword' });
    expect(reply.messages.map((m: { content: string }) => m.content)).toContain('What a lovely project.');
  });

  it('a deleted session: its turns are gone for everyone who took part', async () => {
    await post('delete', { session_id: 'shared' });
    for (const who of ['ivan', 'rosa'])
      for (const text of await answers(who, 'accordion tambourine village band'))
        expect(text).not.toMatch(/accordion|tambourine/);
    // rosa's other sessions are untouched
    for (const text of await answers('rosa', 'marzipan grandmother')) expect(text).toMatch(/marzipan/);
  });

  it('a deleted owner: extracted and buffered turns are gone from every route and recall', async () => {
    await post('delete', { user_id: 'rosa' });
    for (const query of [
      'harpsichord garage weekends',
      'marzipan grandmother winter',
      'old instrument repair',
    ])
      for (const text of await answers('rosa', query)) expect(text).not.toMatch(/harpsichord|marzipan/);
    // nor the other senders' turns of her conversations
    for (const text of await answers('rosa', 'lovely project indeed'))
      expect(text).not.toMatch(/lovely project/);
  });
});
