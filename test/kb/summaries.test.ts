import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';
import { createKb, ingest } from './fixture.js';

/**
 * Topic summaries come from the configured LLM (the scripted OpenAI-compatible server);
 * a topic whose summary request fails gets the offline summary, and the ingest succeeds.
 */
describe.each(DRIVERS)('knowledge-base summaries with an LLM [%s]', (driver) => {
  let s: TestServer;
  let fake: FakeOpenAI;
  let key: string;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    fake.handle('chat', (body) => {
      const user = String(body.messages.at(-1).content);
      const part = /Part: (.*)/.exec(user)?.[1] ?? '?';
      if (part === 'Descaling') return { status: 500 };
      return {
        content: JSON.stringify({ summary: `How the espresso machine handles ${part.toLowerCase()}.` }),
      };
    });
    s = await startTestServer(driver, {
      ENGRAM_LLM_BASE_URL: fake.baseURL,
      ENGRAM_LLM_MAX_RETRIES: '0',
      ENGRAM_LLM_TIMEOUT_MS: '5000',
    });
    key = await s.key('tenant-a');
  });
  afterAll(async () => {
    await s.close();
    await fake.stop();
  });

  it('summarises each topic with the LLM, falling back offline for a failed one', async () => {
    const kb = await createKb(s, key);
    const doc = await ingest(
      s,
      key,
      kb,
      'Espresso machine care',
      '# Steam wand\n\nPurge the steam wand before and after frothing milk.\n\n# Descaling\n\nRun the descaling solution through the boiler every month.',
    );
    const topics = (await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${doc}/topics`, { key }))
      .body.data.topics;
    const by = Object.fromEntries(topics.map((t: any) => [t.name, t.summary]));
    expect(by['Steam wand']).toBe('How the espresso machine handles steam wand.');
    expect(by['Descaling']).toBe('Run the descaling solution through the boiler every month.');
    expect(by['Espresso machine care']).toBe('How the espresso machine handles espresso machine care.');
    const d = (await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${doc}`, { key })).body.data;
    expect(d.summary).toBe(by['Espresso machine care']);
    const prompts = fake.requestsTo('chat').map((r) => String(r.body.messages.at(-1).content));
    expect(prompts.some((p) => p.includes('Document context: Espresso machine care > Steam wand'))).toBe(
      true,
    );
  });
});
