import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';
import { multiParty } from '../helpers/messages.js';

const ITEM_RE = /^(ei|it)_[0-9a-f]{24}$/;

/** The scripted model: answers each kind of request engram makes by its schema name. */
function scriptedModel(fake: FakeOpenAI) {
  fake.handle('chat', (body) => {
    const name = body?.response_format?.json_schema?.name ?? '';
    const prompt = JSON.stringify(body.messages);
    if (name === 'topic_shift' || prompt.includes('topic_shift')) return { content: '{"shift": false}' };
    if (name === 'distill_skill' || prompt.includes('distill_skill'))
      return {
        content: JSON.stringify({
          name: 'Find restaurants',
          description: 'd',
          content: '1. search',
          confidence: 0.7,
        }),
      };
    return {
      // prose around the JSON: engram must cope
      content: `Here is the memory:\n${JSON.stringify({
        subject: 'Dinner plans in Lisbon',
        summary: 'Alice and Bob planned a vegetarian dinner near Alfama with help from the assistant.',
        episode:
          'On 8 May 2024 Alice told Bob she had moved to Lisbon; Bob, a nurse in Porto, asked the assistant for a vegetarian restaurant near Alfama.',
        facts: [
          { content: 'Alice moved to Lisbon in early May 2024.', sources: [1] },
          { content: 'Bob works as a nurse in Porto.', sources: [2] },
        ],
        profiles: [
          {
            user_id: 'alice',
            explicit_info: [{ category: 'location', description: 'Alice lives in Lisbon.', sources: [1] }],
            implicit_traits: [],
          },
          {
            user_id: 'bob',
            explicit_info: [{ category: 'occupation', description: 'Bob is a nurse.', sources: [2] }],
            implicit_traits: [{ trait: 'decisive', description: 'Picks quickly.', sources: [7] }],
          },
          {
            user_id: 'helper-bot',
            explicit_info: [{ category: 'other', description: 'not a human', sources: [4] }],
            implicit_traits: [],
          },
        ],
        cases: [
          {
            agent_id: 'helper-bot',
            task_intent: 'Find a vegetarian restaurant near Alfama',
            approach: 'Called search_restaurants with location and diet, reported the top two.',
            quality_score: 0.9,
            key_insight: 'Filter by diet in the tool call.',
          },
        ],
      })}\nDone.`,
    };
  });
}

describe.each(DRIVERS)('multi-party session [%s]', (driver) => {
  for (const mode of ['offline', 'llm'] as const) {
    describe(`${mode} extractor`, () => {
      let s: TestServer;
      let fake: FakeOpenAI | undefined;
      let key: string;
      beforeAll(async () => {
        if (mode === 'llm') {
          fake = await new FakeOpenAI().start();
          scriptedModel(fake);
        }
        s = await startTestServer(
          driver,
          fake ? { ENGRAM_LLM_BASE_URL: fake.baseURL, ENGRAM_LLM_MODEL: 'fake' } : {},
        );
        key = await s.key('tenant-a');
        const r = await s.call('POST', '/api/v2/memory/add', {
          key,
          body: { session_id: 'dinner', messages: multiParty() },
        });
        expect(r.status).toBe(200);
        const f = await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'dinner' } });
        expect(f.body.data.status).toBe('extracted');
      });
      afterAll(async () => {
        await s.close();
        await fake?.stop();
      });
      afterEach(() => {});

      const get = (body: unknown) => s.call('POST', '/api/v2/memory/get', { key, body });

      it('gives each human the episode, with provenance', async () => {
        for (const u of ['alice', 'bob']) {
          const r = await get({ memory_type: 'episode', user_id: u });
          expect(r.body.data.episodes).toHaveLength(1);
          const ep = r.body.data.episodes[0];
          expect(ep.sender_ids).toEqual(expect.arrayContaining(['alice', 'bob', 'helper-bot']));
          expect(ep.type).toBe('AgentConversation');
          expect(ep.source_message_ids).toHaveLength(7);
          expect(ep.atomic_facts.length).toBeGreaterThan(0);
          for (const f of ep.atomic_facts)
            for (const id of f.source_message_ids) expect(ep.source_message_ids).toContain(id);
        }
        expect(
          (await get({ memory_type: 'episode', user_id: 'helper-bot' })).body.data.episodes,
        ).toHaveLength(0);
      });

      it('builds a profile per human with pattern-valid item ids', async () => {
        for (const u of ['alice', 'bob']) {
          const r = await get({ memory_type: 'profile', user_id: u });
          expect(r.body.data.profiles).toHaveLength(1);
          const p = r.body.data.profiles[0];
          expect(p.id).toMatch(/^[0-9a-f]{24}$/);
          const items = [...p.profile_data.explicit_info, ...p.profile_data.implicit_traits];
          expect(items.length).toBeGreaterThan(0);
          for (const i of items) expect(i.item_id).toMatch(ITEM_RE);
          expect(typeof p.profile_data.summary).toBe('string');
        }
        expect(
          (await get({ memory_type: 'profile', user_id: 'helper-bot' })).body.data.profiles,
        ).toHaveLength(0);
      });

      it('records an agent case for the assistant', async () => {
        const r = await get({ memory_type: 'agent_case', agent_id: 'helper-bot' });
        expect(r.body.data.agent_cases).toHaveLength(1);
        const c = r.body.data.agent_cases[0];
        expect(c.task_intent.length).toBeGreaterThan(0);
        expect(c.approach).toMatch(/search_restaurants/i);
        expect(c.quality_score).toBeGreaterThanOrEqual(0);
        expect(c.quality_score).toBeLessThanOrEqual(1);
        if (mode === 'llm') expect(fake!.requestsTo('chat').length).toBeGreaterThan(0);
      });
    });
  }
});
