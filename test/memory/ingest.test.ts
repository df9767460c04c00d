import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { embeddingsResponse, FakeOpenAI } from '../helpers/fake-openai.js';
import { DAY, MIN, T0, user } from '../helpers/messages.js';

/**
 * The add write path: an add's messages and its job are one statement; concurrent adds of
 * one session queue their jobs behind each other while the workers finish jobs of the same
 * session, and no job is left waiting for a job that already finished.
 */
describe.each(DRIVERS)('add write path [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_RATE_LIMIT_RPS: '0', ENGRAM_WORKER_CONCURRENCY: '4' });
    key = await s.key('tenant-ingest');
  });
  afterAll(() => s.close());

  const add = (body: unknown) => s.call('POST', '/api/v2/memory/add', { key, body });

  it('stores 500 messages of one add in request order with their items, tool calls and well-formed text', async () => {
    const messages = Array.from({ length: 500 }, (_, i) =>
      user('writer', `note ${i}: the greenhouse tomatoes need water on day ${i % 7}`, T0 + i * 1000),
    );
    messages[3] = { ...messages[3]!, content: 'a lone \ud800 surrogate' };
    const items = [{ type: 'text', text: 'sketch of the trellis' }];
    (messages[7] as unknown as Record<string, unknown>)['content'] = items;
    messages[9] = {
      sender_id: 'helper-bot',
      role: 'assistant',
      content: 'checking the forecast',
      timestamp: T0 + 9 * 1000,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'forecast', arguments: '{"days":3}' } },
      ],
    };
    const r = await add({ session_id: 'big', async_mode: true, messages });
    expect(r.status).toBe(202);
    const rows = await s.engram.db.query<{
      id: string;
      content: string;
      content_items: unknown;
      tool_calls: unknown;
      ts: string | number;
      task_id: string;
    }>(
      `SELECT id, content, content_items, tool_calls, ts, task_id FROM messages
       WHERE tenant_id = 'tenant-ingest' AND session_id = 'big' ORDER BY seq`,
    );
    expect(rows.map((x) => x.id)).toEqual(r.body.data.message_ids);
    expect(rows.map((x) => Number(x.ts))).toEqual(messages.map((m) => m.timestamp));
    expect(new Set(rows.map((x) => x.task_id))).toEqual(new Set([r.body.data.task_id]));
    expect(rows[3]!.content).toBe('a lone \ufffd surrogate');
    expect(rows[7]!.content_items).toEqual(items);
    expect(rows[9]!.tool_calls).toEqual(messages[9]!.tool_calls);
    expect(rows[0]!.content_items).toBeNull();
  });

  it('runs the jobs of concurrent adds to one session one at a time, in order, and leaves none waiting', async () => {
    const session = 'busy';
    const ids: string[][] = [];
    const tasks: string[] = [];
    // 6 waves of 8 concurrent adds, each wave a new day (a boundary), while workers run
    for (let wave = 0; wave < 6; wave++) {
      const replies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          add({
            session_id: session,
            async_mode: true,
            messages: [
              user('gardener', `wave ${wave} note ${i}: repotted the basil`, T0 + wave * DAY + i * MIN),
            ],
          }),
        ),
      );
      for (const r of replies) {
        expect(r.status).toBe(202);
        ids.push(r.body.data.message_ids);
        tasks.push(r.body.data.task_id);
      }
    }
    const final = async () =>
      s.engram.db.query<{ status: string; n: number }>(
        `SELECT status, count(*)::int AS n FROM tasks WHERE tenant_id = 'tenant-ingest' AND session_id = $1
         GROUP BY status`,
        [session],
      );
    for (let i = 0; i < 600; i++) {
      const st = await final();
      if (st.every((x) => x.status === 'success' || x.status === 'failed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await final()).toEqual([{ status: 'success', n: 48 }]);
    // in order: each job started after the one before it (by creation) finished
    const rows = await s.engram.db.query<{
      id: string;
      started_at: Date | string;
      finished_at: Date | string;
    }>(
      `SELECT id, started_at, finished_at FROM tasks WHERE tenant_id = 'tenant-ingest' AND session_id = $1 ORDER BY seq`,
      [session],
    );
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(tasks));
    for (let i = 1; i < rows.length; i++)
      expect(new Date(rows[i]!.started_at).getTime()).toBeGreaterThanOrEqual(
        new Date(rows[i - 1]!.finished_at).getTime(),
      );
    const states = async (list: string[]) =>
      s.engram.db.query<{ state: string; n: number }>(
        `SELECT state, count(*)::int AS n FROM messages WHERE tenant_id = 'tenant-ingest'
         AND id IN (SELECT jsonb_array_elements_text($1::jsonb)) GROUP BY state ORDER BY state`,
        [JSON.stringify(list)],
      );
    // every message is past its job: the days before the last are extracted, the last
    // day's messages wait in the buffer (or are extracted, if a topic shift cut them)
    expect(await states(ids.slice(0, 40).flat())).toEqual([{ state: 'extracted', n: 40 }]);
    for (const { state } of await states(ids.slice(40).flat()))
      expect(['buffered', 'extracted']).toContain(state);
    // each turn has its embedding, whether extracted or still in the buffer, and each
    // segment cut became one episode made of exactly its turns
    const turns = await s.engram.db.query<{
      id: string;
      state: string;
      segment_id: string | null;
      e: boolean;
    }>(
      `SELECT id, state, segment_id, embedding IS NOT NULL AS e FROM messages
       WHERE tenant_id = 'tenant-ingest' AND session_id = $1 ORDER BY seq`,
      [session],
    );
    expect(turns.length).toBe(48);
    expect(turns.filter((t) => !t.e)).toEqual([]);
    const episodes = await s.engram.db.query<{ segment_id: string; source_message_ids: string[] }>(
      `SELECT segment_id, source_message_ids FROM episodes WHERE tenant_id = 'tenant-ingest' AND session_id = $1`,
      [session],
    );
    const segments = new Map<string, string[]>();
    for (const t of turns.filter((t) => t.state === 'extracted'))
      segments.set(t.segment_id!, [...(segments.get(t.segment_id!) ?? []), t.id]);
    expect(new Map(episodes.map((e) => [e.segment_id, [...e.source_message_ids].sort()]))).toEqual(
      new Map([...segments].map(([id, msgs]) => [id, msgs.sort()])),
    );
  });
});

/**
 * A turn gets its embedding in the statement that moves it into the buffer; when the
 * embedder fails, the turn stays without one (findable by keyword) and the session's next
 * job embeds it.
 */
describe.each(DRIVERS)('turn embeddings [%s]', (driver) => {
  let s: TestServer;
  let fake: FakeOpenAI;
  let key: string;
  let refuse = false;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    fake.handle('embeddings', (body: { model: string; input: string[] }) =>
      refuse
        ? { status: 400, body: { error: { message: 'refused' } } }
        : {
            json: embeddingsResponse(
              body.model,
              body.input.map((t) => [t.length, 1, 0, 0]),
            ),
          },
    );
    s = await startTestServer(driver, {
      ENGRAM_EMBEDDING_BASE_URL: fake.baseURL,
      ENGRAM_EMBEDDING_DIMENSIONS: '4',
    });
    key = await s.key('tenant-embed');
  });
  afterAll(async () => {
    await s.close();
    await fake.stop();
  });

  const add = (messages: unknown[]) =>
    s.call('POST', '/api/v2/memory/add', { key, body: { session_id: 'walks', messages } });
  const turns = () =>
    s.engram.db.query<{ content: string; state: string; embedded: boolean }>(
      `SELECT content, state, embedding IS NOT NULL AS embedded FROM messages
       WHERE tenant_id = 'tenant-embed' AND session_id = 'walks' ORDER BY seq`,
    );

  it('embeds the turns a failed embedding left without a vector at the next job, then extracts them', async () => {
    refuse = true;
    expect(
      (
        await add([
          user('rosa', 'walked the dog by the canal', T0),
          user('rosa', 'the dog chased a heron', T0 + MIN),
        ])
      ).status,
    ).toBe(200);
    expect(await turns()).toEqual([
      { content: 'walked the dog by the canal', state: 'buffered', embedded: false },
      { content: 'the dog chased a heron', state: 'buffered', embedded: false },
    ]);
    refuse = false;
    expect((await add([user('rosa', 'we stopped for tea at the lock', T0 + 2 * MIN)])).status).toBe(200);
    expect((await turns()).map((t) => [t.state, t.embedded])).toEqual([
      ['buffered', true],
      ['buffered', true],
      ['buffered', true],
    ]);
    // the next day is a boundary: the three turns become one episode, the new one waits
    const r = await add([user('rosa', 'rain all morning, no walk', T0 + DAY)]);
    expect(r.body.data.status).toBe('extracted');
    expect((await turns()).map((t) => [t.state, t.embedded])).toEqual([
      ['extracted', true],
      ['extracted', true],
      ['extracted', true],
      ['buffered', true],
    ]);
    // each turn's own vector (the fake embedder's [length, 1, 0, 0], normalised)
    const vectors = await s.engram.db.query<{ content: string; v: string }>(
      `SELECT content, embedding::text AS v FROM messages
       WHERE tenant_id = 'tenant-embed' AND session_id = 'walks' ORDER BY seq`,
    );
    for (const { content, v } of vectors) {
      const [a, b] = JSON.parse(v) as number[];
      expect(a! / b!).toBeCloseTo(content.length, 3);
    }
  });
});
