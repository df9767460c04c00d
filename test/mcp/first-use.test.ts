import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, MIN, T0, user } from '../helpers/messages.js';
import { AGENT_TOOL_NAMES, call, errorOf, httpClient, ok, text, waitTask } from './helpers.js';

/** What a new agent meets with the default settings: a short tool list, notes extracted at once, idle sessions extracted. */
describe.each(DRIVERS)('MCP first use [%s]', (driver) => {
  let s: TestServer;
  let a: Client;

  beforeAll(async () => {
    // idle sessions are extracted after 1.2 s here (minutes in production)
    s = await startTestServer(driver, { ENGRAM_IDLE_EXTRACT_MINUTES: '0.02' });
    a = await httpClient(s.url, await s.key('tenant-a'));
  });
  afterAll(async () => {
    await a?.close();
    await s?.close();
  });

  it('lists the agent tools only; the admin tools are not callable', async () => {
    const { tools } = await a.listTools();
    expect(tools.map((t) => t.name)).toEqual(AGENT_TOOL_NAMES);
    const r = await call(a, 'delete_memories', { user_id: 'anyone' });
    expect(r.isError).toBe(true);
    expect(errorOf(r).message).toContain('no tool named delete_memories');
    const schema = tools.find((t) => t.name === 'remember')!.inputSchema as any;
    const message = schema.properties.messages.items;
    expect(message.properties.timestamp.description).toMatch(/Unix milliseconds/);
  });

  it('extracts a remembered note at once, without a flush', async () => {
    const r = await call(a, 'remember', {
      note: 'My favourite tea is smoked lapsang souchong.',
      user_id: 'nell',
    });
    expect(text(r)).toContain('extracted into memory now');
    expect((await waitTask(a, r.structuredContent.task_id)).status).toBe('success');
    const done = await call(a, 'get_task', { task_id: r.structuredContent.task_id });
    expect(text(done)).toMatch(/1 segment of session notes-nell extracted into memory/);
    expect(text(done)).toContain('no message of the session was left waiting');
    const got = await ok(a, 'get_memories', { memory_type: 'episode', user_id: 'nell' });
    expect(got.total_count).toBe(1);
    expect(JSON.stringify(got.episodes[0]).toLowerCase()).toContain('lapsang');
  });

  it("files an agent's note about the user in the third person into her profile", async () => {
    for (const note of [
      'The user prefers pnpm over npm and deploys to Vercel.',
      'User is allergic to peanuts.',
      'Prefers concise answers without emoji.',
    ]) {
      const r = await call(a, 'remember', { note, user_id: 'wren' });
      expect((await waitTask(a, r.structuredContent.task_id)).status).toBe('success');
    }
    const got = await ok(a, 'get_memories', { memory_type: 'profile', user_id: 'wren' });
    const items = got.profiles[0].profile_data.explicit_info.map((i: any) => [i.category, i.description]);
    expect(items).toEqual(
      expect.arrayContaining([
        ['preference', expect.stringMatching(/prefers pnpm over npm/)],
        ['allergy', expect.stringMatching(/is allergic to peanuts/)],
        ['preference', expect.stringMatching(/prefers concise answers/)],
      ]),
    );
  });

  it("recalls an agent's own note by its agent_id once extracted, and forgets it when the agent is deleted", async () => {
    const r = await call(a, 'remember', {
      note: 'The staging database password rotates every Friday at noon.',
      agent_id: 'ops-bot',
    });
    expect((await waitTask(a, r.structuredContent.task_id)).status).toBe('success');
    const recall = async () =>
      (await ok(a, 'recall', { query: 'when does the staging password rotate', agent_id: 'ops-bot' }))
        .context;
    expect(await recall()).toContain('rotates every Friday at noon');
    // not anyone else's
    const other = await ok(a, 'recall', { query: 'when does the staging password rotate', user_id: 'nell' });
    expect(other.context).not.toContain('Friday');
    const deleted = await s.call('POST', '/api/v2/memory/delete', {
      key: await s.key('tenant-a'),
      body: { agent_id: 'ops-bot' },
    });
    expect(deleted.status).toBe(200);
    expect(await recall()).not.toContain('Friday');
  });

  it('says what is still buffered, and extracts an idle session without a flush', async () => {
    const messages = [
      user('otto', 'I am planning a hiking trip to the Dolomites in September.', T0),
      assistant('helper', 'Nice. Do you want hut-to-hut routes or day hikes?', T0 + MIN),
      user('otto', 'Hut-to-hut, about five days, with my brother Paul.', T0 + 2 * MIN),
    ];
    const r = await ok(a, 'remember', { session_id: 'dolomites', messages });
    expect((await waitTask(a, r.task_id)).status).toBe('success');
    const t = text(await call(a, 'get_task', { task_id: r.task_id }));
    expect(t).toContain('3 messages were still buffered');
    expect(t).toContain('flush_session');
    // nothing new arrives: the workers extract the session once it has been idle
    const until = Date.now() + 60_000;
    let total = 0;
    while (Date.now() < until) {
      total = (await ok(a, 'get_memories', { memory_type: 'episode', user_id: 'otto' })).total_count;
      if (total > 0) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(total).toBeGreaterThan(0);
    const flushed = await call(a, 'flush_session', { session_id: 'dolomites' });
    expect(flushed.structuredContent).toEqual({ status: 'no_extraction' });
    expect(text(flushed)).toMatch(/^Nothing was waiting in session dolomites/);
  });
});
