import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../src/config.js';
import { LlmError, type SegmentMessage, type ToolCall } from '../../src/core/ports.js';
import { createLlm, LlmExtractor, OpenAiLlm, type OpenAiLlmOptions } from '../../src/providers/llm/index.js';
import { FakeOpenAI } from '../helpers/fake-openai.js';

/** Drives the real OpenAiLlm and LlmExtractor against the scripted server on loopback. */
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await new FakeOpenAI().start();
});
afterAll(async () => {
  await fake.stop();
});
afterEach(() => {
  fake.requests.length = 0;
});

function llm(opts: Partial<OpenAiLlmOptions> = {}): OpenAiLlm {
  return new OpenAiLlm({ baseURL: fake.baseURL, model: 'fake-model', maxRetries: 2, backoffMs: 20, ...opts });
}

const answer = z.object({ answer: z.string(), n: z.number() });
const ask = { name: 'test_task', system: 'You answer in JSON.', user: 'Question?', schema: answer };
const good = JSON.stringify({ answer: 'yes', n: 1 });

describe('OpenAiLlm', () => {
  it('returns a clean reply and asks for structured output', async () => {
    fake.script('chat', { content: good });
    await expect(llm().json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    const [req] = fake.requestsTo('chat');
    expect(req?.body.model).toBe('fake-model');
    expect(req?.body.temperature).toBe(0);
    expect(req?.body.messages).toEqual([
      { role: 'system', content: 'You answer in JSON.' },
      { role: 'user', content: 'Question?' },
    ]);
    expect(req?.body.response_format.type).toBe('json_schema');
    expect(req?.body.response_format.json_schema.name).toBe('test_task');
    expect(req?.body.response_format.json_schema.strict).toBe(false);
    expect(req?.body.response_format.json_schema.schema.properties).toHaveProperty('answer');
    expect(req?.headers.authorization).toBe('Bearer not-needed');
  });

  it('accepts JSON wrapped in prose and in code fences', async () => {
    fake.script(
      'chat',
      { content: `Sure, here is the answer: ${good} Let me know!` },
      { content: `\`\`\`json\n${good}\n\`\`\`` },
    );
    const l = llm();
    await expect(l.json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    await expect(l.json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    expect(fake.requestsTo('chat')).toHaveLength(2);
  });

  it('retries a malformed reply with a corrective message', async () => {
    fake.script('chat', { content: 'I think the answer is yes.' }, { content: good });
    await expect(llm().json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    const reqs = fake.requestsTo('chat');
    expect(reqs).toHaveLength(2);
    const retry = reqs[1]?.body.messages;
    expect(retry).toHaveLength(4);
    expect(retry[2]).toEqual({ role: 'assistant', content: 'I think the answer is yes.' });
    expect(retry[3].role).toBe('user');
    expect(retry[3].content).toMatch(/could not be used.*no parseable JSON/s);
  });

  it('retries a reply that does not match the schema, naming the bad field', async () => {
    fake.script('chat', { content: '{"answer": "yes", "n": "one"}' }, { content: good });
    await expect(llm().json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    const retry = fake.requestsTo('chat')[1]?.body.messages;
    expect(retry.at(-1).content).toMatch(/invalid JSON fields[\s\S]*n/);
  });

  it('gives up on persistently malformed replies after maxRetries+1 attempts', async () => {
    fake.handle('chat', () => ({ content: 'no JSON here, sorry' }));
    try {
      const err = await llm({ maxRetries: 2 })
        .json(ask)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LlmError);
      expect((err as LlmError).retryable).toBe(false);
      expect((err as LlmError).message).toMatch(/test_task.*3 attempt/);
      expect(fake.requestsTo('chat')).toHaveLength(3);
      // Only the latest correction is kept, so the conversation does not grow.
      expect(fake.requestsTo('chat')[2]?.body.messages).toHaveLength(4);
    } finally {
      fake.handle('chat', () => ({ status: 500 }));
    }
  });

  it('falls back to json_object when response_format json_schema is rejected, and remembers it', async () => {
    const rejection = {
      status: 400,
      body: {
        error: {
          message:
            "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          type: 'invalid_request_error',
          param: 'response_format',
        },
      },
    };
    fake.script('chat', rejection, { content: good }, { content: good });
    const l = llm();
    await expect(l.json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    expect(l.responseFormatMode).toBe('json_object');
    await expect(l.json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    const formats = fake.requestsTo('chat').map((r) => r.body.response_format?.type);
    expect(formats).toEqual(['json_schema', 'json_object', 'json_object']);
    // Without structured output the schema travels in the system message.
    expect(fake.requestsTo('chat')[1]?.body.messages[0].content).toMatch(/JSON Schema:.*"answer"/s);
  });

  it('drops response_format entirely when json_object is rejected too', async () => {
    const reject = (what: string) => ({
      status: 422,
      body: { error: { message: `${what} is not supported` } },
    });
    fake.script('chat', reject('json_schema'), reject('response_format json_object'), { content: good });
    const l = llm({ maxRetries: 0 });
    await expect(l.json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    expect(l.responseFormatMode).toBe('none');
    const last = fake.requestsTo('chat').at(-1);
    expect(last?.body).not.toHaveProperty('response_format');
  });

  it('retries a timeout, then throws a retryable LlmError', async () => {
    fake.script('chat', { hangMs: 5000 }, { hangMs: 5000 });
    const started = Date.now();
    const err = await llm({ timeoutMs: 300, maxRetries: 1 })
      .json(ask)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).retryable).toBe(true);
    expect((err as LlmError).message).toMatch(/timed out/);
    expect(fake.requestsTo('chat')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('retries a 500 and a 429, then succeeds', async () => {
    fake.script('chat', { status: 500 }, { status: 429 }, { content: good });
    await expect(llm().json(ask)).resolves.toEqual({ answer: 'yes', n: 1 });
    expect(fake.requestsTo('chat')).toHaveLength(3);
  });

  it('does not retry a non-retryable HTTP error', async () => {
    fake.script('chat', { status: 401, body: { error: { message: 'bad key' } } });
    const err = await llm()
      .json(ask)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).retryable).toBe(false);
    expect(fake.requestsTo('chat')).toHaveLength(1);
  });

  it('is created from configuration only when a base URL is set', async () => {
    expect(createLlm(loadConfig({}))).toBeUndefined();
    const l = createLlm(
      loadConfig({ ENGRAM_LLM_BASE_URL: fake.baseURL, ENGRAM_LLM_MODEL: 'm1', ENGRAM_LLM_API_KEY: 'k1' }),
    );
    expect(l?.model).toBe('m1');
    fake.script('chat', { content: good });
    await l?.json(ask);
    expect(fake.requestsTo('chat')[0]?.headers.authorization).toBe('Bearer k1');
  });
});

// ---------------------------------------------------------------- extractor

const T0 = Date.UTC(2023, 4, 8, 13, 56);
let seq = 0;
function msg(
  sender_id: string,
  sender_name: string | null,
  role: SegmentMessage['role'],
  content: string,
  extra: { minutes?: number; tool_calls?: ToolCall[]; tool_call_id?: string } = {},
): SegmentMessage {
  seq++;
  return {
    id: `m${seq}`,
    session_id: 's1',
    sender_id,
    sender_name,
    role,
    content,
    timestamp: T0 + (extra.minutes ?? 0) * 60_000,
    tool_calls: extra.tool_calls ?? null,
    tool_call_id: extra.tool_call_id ?? null,
  };
}

function lastUserPrompt(): string {
  const body = fake.requestsTo('chat').at(-1)?.body;
  return body.messages[1].content as string;
}

describe('LlmExtractor', () => {
  it('maps line numbers to message ids and keeps only humans and tool-using agents', async () => {
    seq = 0;
    const segment = [
      msg('u_rosa', 'Rosa', 'user', 'I went to a chess club yesterday.'),
      msg('bot', 'Helper', 'assistant', 'That sounds meaningful!', { minutes: 1 }),
      msg('u_rosa', 'Rosa', 'user', 'I want to be a pilot.', { minutes: 2 }),
    ];
    fake.script('chat', {
      content: JSON.stringify({
        subject: 'Chess club',
        summary: 'Rosa talks about her chess club.',
        episode: 'On 8 May 2023 Rosa told Helper she went to a chess club on 7 May 2023.',
        facts: [
          { content: 'Rosa went to a chess club on 7 May 2023.', sources: [1, 99, '3', 0] },
          { content: 'Rosa wants to become a pilot.', sources: [] },
        ],
        profiles: [
          {
            user_id: 'u_rosa',
            explicit_info: [{ category: 'Plan', description: 'Wants to be a pilot', sources: [3] }],
            implicit_traits: [{ trait: 'Open', description: 'Shares personal experiences', sources: [] }],
          },
          { user_id: 'bot', explicit_info: [{ category: 'x', description: 'not a human', sources: [2] }] },
          { user_id: 'stranger', explicit_info: [{ category: 'x', description: 'unknown', sources: [1] }] },
        ],
        cases: [{ agent_id: 'bot', task_intent: 'chat', approach: 'replied', quality_score: 2 }],
      }),
    });
    const out = await new LlmExtractor(llm()).extract(segment, { humans: ['u_rosa'], agents: ['bot'] });
    expect(lastUserPrompt()).toContain('[1] 2023-05-08 13:56 Rosa (user): I went to a chess club yesterday.');
    expect(lastUserPrompt()).toContain('Monday 8 May 2023');
    expect(out.episode.subject).toBe('Chess club');
    expect(out.episode.facts).toEqual([
      { content: 'Rosa went to a chess club on 7 May 2023.', message_ids: ['m1', 'm3'] },
      // No usable sources: the fact rests on the turn sharing the most of its words, not on
      // the whole segment (which recall would take for every turn shown).
      { content: 'Rosa wants to become a pilot.', message_ids: ['m3'] },
    ]);
    expect(out.profiles).toEqual([
      {
        user_id: 'u_rosa',
        explicit_info: [{ category: 'plan', description: 'Wants to be a pilot', message_ids: ['m3'] }],
        implicit_traits: [
          { trait: 'Open', description: 'Shares personal experiences', message_ids: ['m1', 'm3'] },
        ],
      },
    ]);
    // The bot issued no tool calls, so it gets no case.
    expect(out.cases).toEqual([]);
  });

  it('turns a multi-party segment with tool use into an episode, two profiles and one case', async () => {
    seq = 0;
    const call: ToolCall = {
      id: 'call_1',
      type: 'function',
      function: { name: 'search_flights', arguments: '{"from":"BOS","to":"LIS","date":"2023-05-12"}' },
    };
    const segment = [
      msg('u_ana', 'Ana', 'user', 'We fly to Lisbon on Friday, can you find flights?'),
      msg('u_ben', 'Ben', 'user', 'I prefer a window seat, and no red-eyes please.', { minutes: 1 }),
      msg('agent_t', 'TravelBot', 'assistant', '', { minutes: 2, tool_calls: [call] }),
      msg('search_flights', null, 'tool', '[{"flight":"TP218","dep":"18:05"}]', {
        minutes: 2,
        tool_call_id: 'call_1',
      }),
      msg('agent_t', 'TravelBot', 'assistant', 'TP218 leaves at 18:05 on 12 May.', { minutes: 3 }),
    ];
    fake.script('chat', {
      content: `Here is the memory:\n\`\`\`json\n${JSON.stringify({
        subject: 'Flights to Lisbon',
        summary: 'Ana and Ben asked TravelBot for flights to Lisbon on 12 May 2023.',
        episode:
          'On 8 May 2023 Ana asked TravelBot to find flights to Lisbon for Friday 12 May 2023. Ben said he prefers a window seat and no overnight flights. TravelBot searched and proposed TP218 at 18:05.',
        facts: [{ content: 'Ana and Ben fly to Lisbon on 12 May 2023.', sources: [1, 5] }],
        profiles: [
          {
            user_id: 'Ana',
            explicit_info: [
              { category: 'plan', description: 'Flies to Lisbon on 12 May 2023', sources: [1] },
            ],
          },
          {
            user_id: 'u_ben',
            explicit_info: [{ category: 'preference', description: 'Prefers window seats', sources: [2] }],
            implicit_traits: [
              { trait: 'Comfort-seeking', description: 'Avoids red-eye flights', sources: [2] },
            ],
          },
        ],
        cases: [
          {
            agent_id: 'agent_t',
            task_intent: 'Find flights to Lisbon',
            approach: 'Called search_flights, proposed the evening flight',
            quality_score: 0.8,
            key_insight: 'Ask about seat preferences up front',
          },
          { agent_id: 'u_ana', task_intent: 'not an agent', approach: 'x', quality_score: 0.5 },
        ],
      })}\n\`\`\``,
    });
    const out = await new LlmExtractor(llm()).extract(segment, {
      humans: ['u_ana', 'u_ben'],
      agents: ['agent_t'],
    });
    const prompt = lastUserPrompt();
    expect(prompt).toContain('- Ana: id "u_ana", human (user)');
    expect(prompt).toContain('- TravelBot: id "agent_t", AI agent (assistant)');
    expect(prompt).toContain(
      '[3] 2023-05-08 13:58 TravelBot (assistant): calls tool search_flights({"from":"BOS","to":"LIS","date":"2023-05-12"})',
    );
    expect(prompt).toContain(
      '[4] 2023-05-08 13:58 search_flights (tool): tool result for call_1: [{"flight"',
    );

    expect(out.episode.episode).toMatch(/Lisbon/);
    expect(out.episode.facts[0]?.message_ids).toEqual(['m1', 'm5']);
    expect(out.profiles.map((p) => p.user_id)).toEqual(['u_ana', 'u_ben']); // "Ana" resolved by name
    expect(out.profiles[1]?.implicit_traits[0]?.message_ids).toEqual(['m2']);
    expect(out.cases).toEqual([
      {
        agent_id: 'agent_t',
        task_intent: 'Find flights to Lisbon',
        approach: 'Called search_flights, proposed the evening flight',
        quality_score: 0.8,
        key_insight: 'Ask about seat preferences up front',
      },
    ]);
  });

  it('clamps sizes and scores and never returns an empty episode', async () => {
    seq = 0;
    const call: ToolCall = { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } };
    const segment = [
      msg('u1', 'Dana', 'user', 'Look up the weather.'),
      msg('a1', null, 'assistant', 'Checking.', { tool_calls: [call] }),
    ];
    fake.script('chat', {
      content: JSON.stringify({
        subject: 'S'.repeat(500),
        summary: '',
        episode: '   ',
        facts: ['Dana asked for the weather.'],
        cases: [
          { agent_id: 'a1', task_intent: 'weather', approach: 'lookup', quality_score: -3, key_insight: '' },
        ],
      }),
    });
    const out = await new LlmExtractor(llm()).extract(segment, { humans: ['u1'], agents: ['a1'] });
    expect(out.episode.subject).toHaveLength(200);
    expect(out.episode.episode).toContain('Dana said: "Look up the weather."');
    expect(out.episode.episode).toContain('a1 said: "Checking." and called the tool lookup');
    expect(out.episode.summary.length).toBeGreaterThan(0);
    expect(out.episode.facts).toEqual([{ content: 'Dana asked for the weather.', message_ids: ['m1'] }]);
    expect(out.cases[0]).toMatchObject({ agent_id: 'a1', quality_score: 0, key_insight: null });
  });

  it('asks about topic shifts with a short window and never throws', async () => {
    seq = 0;
    const buffer = Array.from({ length: 12 }, (_, i) =>
      msg('u1', 'Dana', 'user', `message ${i}`, { minutes: i }),
    );
    const next = msg('u1', 'Dana', 'user', 'Totally different: what about taxes?', { minutes: 20 });
    const x = new LlmExtractor(llm({ maxRetries: 0 }));

    fake.script('chat', { content: '{"shift": true}' });
    await expect(x.isTopicShift(buffer, next)).resolves.toBe(true);
    const prompt = lastUserPrompt();
    expect(prompt).not.toContain('message 3');
    expect(prompt).toContain('[1] 2023-05-08 14:00 Dana (user): message 4');
    expect(prompt).toContain('[9] 2023-05-08 14:16 Dana (user): Totally different');

    fake.script('chat', { status: 503 });
    await expect(x.isTopicShift(buffer, next)).resolves.toBe(false);
    fake.script('chat', { content: 'maybe?' });
    await expect(x.isTopicShift(buffer, next)).resolves.toBe(false);
    const before = fake.requestsTo('chat').length;
    await expect(x.isTopicShift([], next)).resolves.toBe(false);
    expect(fake.requestsTo('chat')).toHaveLength(before);
  });

  it('distills a skill from cases', async () => {
    fake.script('chat', {
      content: JSON.stringify({
        name: 'Book flights',
        description: 'Find and propose flights.',
        content: '1. Ask preferences\n2. Search',
        confidence: 1.7,
      }),
    });
    const skill = await new LlmExtractor(llm()).distillSkill([
      { id: 'c1', task_intent: 'find flights', approach: 'search', quality_score: 0.9, key_insight: null },
      {
        id: 'c2',
        task_intent: 'find flights',
        approach: 'ask then search',
        quality_score: 0.7,
        key_insight: 'ask',
      },
    ]);
    expect(skill).toEqual({
      name: 'Book flights',
      description: 'Find and propose flights.',
      content: '1. Ask preferences\n2. Search',
      confidence: 1,
    });
    expect(lastUserPrompt()).toContain('Case 2 (quality 0.70):');
  });
});
