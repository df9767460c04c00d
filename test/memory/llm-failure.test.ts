import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';
import { MIN, T0, user } from '../helpers/messages.js';

/** An LLM that fails never loses messages: extraction waits for the next flush. */
describe.each(DRIVERS)('extraction with a failing LLM [%s]', (driver) => {
  let s: TestServer;
  let fake: FakeOpenAI;
  let key: string;
  let healthy = false;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    fake.handle('chat', (body) => {
      const name = body?.response_format?.json_schema?.name ?? '';
      if (name === 'topic_shift') return { content: '{"shift": false}' };
      if (!healthy) return { hangMs: 2000 };
      return {
        content: JSON.stringify({
          subject: 'Tea',
          summary: 'Una likes green tea.',
          episode: 'Una said she likes green tea.',
          facts: [{ content: 'Una likes green tea.', sources: [1] }],
          profiles: [],
          cases: [],
        }),
      };
    });
    s = await startTestServer(driver, {
      ENGRAM_LLM_BASE_URL: fake.baseURL,
      ENGRAM_LLM_TIMEOUT_MS: '300',
      ENGRAM_LLM_MAX_RETRIES: '0',
      ENGRAM_TASK_MAX_ATTEMPTS: '2',
    });
    key = await s.key('tenant-a');
  });
  afterAll(async () => {
    await s.close();
    await fake.stop();
  });

  it('keeps the messages when extraction times out, and extracts them once the model answers', async () => {
    const add = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: {
        session_id: 'tea',
        messages: [user('una', 'I like green tea', T0), user('una', 'Every morning', T0 + MIN)],
      },
    });
    expect(add.status).toBe(200);
    const failed = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'tea' } });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('ServiceUnavailable');
    expect(failed.headers.get('retry-after')).toBeTruthy();
    expect(fake.requestsTo('chat').length).toBeGreaterThanOrEqual(2);
    const stored = await s.engram.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM messages WHERE session_id = 'tea' AND deleted_at IS NULL`,
    );
    expect(stored[0]!.n).toBe(2);

    healthy = true;
    const ok = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'tea' } });
    expect(ok.body.data.status).toBe('extracted');
    const got = await s.call('POST', '/api/v2/memory/get', {
      key,
      body: { memory_type: 'episode', user_id: 'una' },
    });
    expect(got.body.data.episodes[0].summary).toBe('Una likes green tea.');
    expect(got.body.data.episodes[0].source_message_ids).toEqual(add.body.data.message_ids);
  });
});
