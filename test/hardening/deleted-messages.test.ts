import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type ServeProcess, startServe } from '../helpers/cli.js';
import { createPostgresDatabase, DRIVERS, dropPostgresDatabase } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { assistant, MIN, T0, user } from '../helpers/messages.js';
import { httpClient, ok } from '../mcp/helpers.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

it('every statement in src/ that reads messages reads them through LIVE_MESSAGES', () => {
  const offenders: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(FROM|JOIN|USING)\s+messages\b|\bfrom:\s*['"`]messages\b/gi)) {
      const line = text.slice(0, m.index).split('\n').length;
      const where = `${relative(SRC, file)}:${line}`;
      // the one definition of the live rows
      if (where.startsWith('engine/memory/stored-message.ts') && text.includes('LIVE_MESSAGES =')) continue;
      offenders.push(where);
    }
  }
  expect(offenders).toEqual([]);
});

describe.each(DRIVERS)('deleting an owner deletes their messages [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  const post = (path: string, body: unknown) => s.call('POST', `/api/v2/memory/${path}`, { key, body });
  const live = async (sender: string) =>
    (
      await s.engram.db.query<{ id: string; state: string }>(
        `SELECT id, state FROM messages WHERE tenant_id = 'acme' AND sender_id = $1 AND deleted_at IS NULL`,
        [sender],
      )
    ).length;
  const sourceIds = async (userId: string) => {
    const r = await post('get', { memory_type: 'episode', user_id: userId });
    return (r.body.data.episodes as { source_message_ids: string[] }[]).flatMap((e) => e.source_message_ids);
  };

  beforeAll(async () => {
    s = await startTestServer(driver, { ENGRAM_MCP_TOOLS: 'all' });
    key = await s.key('acme');
  });
  afterAll(() => s.close());

  it('REST delete by user_id: extracted and pending messages leave every read and search', async () => {
    // nadia: one extracted conversation and one still buffered; omar: a conversation of his own
    await post('add', {
      session_id: 'n1',
      messages: [
        user('nadia', 'My locker code at the climbing gym is 4711', T0),
        assistant('coach-bot', 'Got it, locker code noted.', T0 + MIN),
      ],
    });
    await post('flush', { session_id: 'n1' });
    await post('add', {
      session_id: 'n2',
      messages: [user('nadia', 'I keep a spare key under the blue flowerpot', T0 + 60 * MIN)],
    });
    await post('add', {
      session_id: 'o1',
      messages: [user('omar', 'I keep my bicycle under the blue stairs', T0)],
    });
    await post('flush', { session_id: 'o1' });
    const extracted = await sourceIds('nadia');
    expect(extracted.length).toBeGreaterThan(0);
    expect(await live('nadia')).toBe(2);

    const r = await post('delete', { user_id: 'nadia' });
    expect(r.status).toBe(200);
    expect(await live('nadia')).toBe(0);
    expect(await live('omar')).toBe(1);
    // the episode's source messages are gone from the inspector's message read
    const read = await s.call('GET', `/api/v2/inspect/messages?ids=${extracted.join(',')}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data.items.filter((m: { sender_id: string }) => m.sender_id === 'nadia')).toEqual([]);
    // and from search, buffered ones included
    const found = await post('search', { query: 'blue flowerpot spare key locker code', user_id: 'nadia' });
    expect(found.status).toBe(200);
    const { metadata: _echo, ...hits } = found.body.data;
    expect(JSON.stringify(hits)).not.toMatch(/flowerpot|locker/);
    const pinned = await post('search', { query: 'key', user_id: 'nadia', filters: { session_id: 'n2' } });
    expect(pinned.body.data.unprocessed_messages).toEqual([]);
    // omar's messages are untouched
    const his = await post('search', { query: 'bicycle stairs', user_id: 'omar' });
    expect(his.body.data.episodes.length).toBeGreaterThan(0);
  });

  it('MCP delete_memories forgets the owner’s messages too', async () => {
    await post('add', {
      session_id: 'p1',
      messages: [user('petra', 'My passport number ends in 0042', T0)],
    });
    await post('flush', { session_id: 'p1' });
    expect(await live('petra')).toBe(1);
    const client = await httpClient(s.url, key);
    try {
      await ok(client, 'delete_memories', { user_id: 'petra' });
    } finally {
      await client.close();
    }
    expect(await live('petra')).toBe(0);
  });

  it('purge removes soft-deleted rows for good and leaves live ones', async () => {
    const before = await s.engram.db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM messages WHERE tenant_id = 'acme' AND deleted_at IS NOT NULL`,
    );
    expect(Number(before[0]!.n)).toBeGreaterThan(0);
    const kept = await s.engram.memory.purge(86_400_000);
    expect(kept.messages).toBe(0); // deleted just now: younger than a day
    const counts = await s.engram.memory.purge();
    expect(counts.messages).toBe(Number(before[0]!.n));
    expect(counts.episodes).toBeGreaterThan(0);
    for (const table of ['messages', 'episodes', 'atomic_facts', 'profiles', 'agent_cases', 'agent_skills']) {
      const [row] = await s.engram.db.query<{ n: number | string }>(
        `SELECT count(*) AS n FROM ${table} WHERE deleted_at IS NOT NULL`,
      );
      expect(Number(row!.n), table).toBe(0);
    }
    expect(await live('omar')).toBe(1);
  });
});

describe.each(DRIVERS)('engram purge [%s]', (driver) => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-purge-'));
  let url: string | undefined;
  let serve: ServeProcess | undefined;
  afterAll(async () => {
    await serve?.stop();
    if (url) await dropPostgresDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes deleted messages through the running owner (embedded) or the database', async () => {
    if (driver === 'postgres') url = await createPostgresDatabase();
    const env: Record<string, string> = { ENGRAM_DATA_DIR: dir, ...(url ? { DATABASE_URL: url } : {}) };
    serve = await startServe(dir, env);
    const created = await runCli(['keys', 'create', '--tenant', 'acme'], env, 120_000);
    expect(created.code).toBe(0);
    const auth = { authorization: `Bearer ${created.stdout.trim()}`, 'content-type': 'application/json' };
    const api = (path: string, body: unknown) =>
      fetch(`${serve!.url}/api/v2/memory/${path}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(body),
      });
    expect(
      (await api('add', { session_id: 'q1', messages: [user('quinn', 'My bank PIN is not 1234', T0)] }))
        .status,
    ).toBe(200);
    expect((await api('delete', { user_id: 'quinn' })).status).toBe(200);

    const bad = await runCli(['purge', '--older-than-days', 'soon'], env, 120_000);
    expect(bad.code).toBe(2);
    const young = await runCli(['purge', '--older-than-days', '1', '--json'], env, 120_000);
    expect(young.code).toBe(0);
    expect(JSON.parse(young.stdout)).toMatchObject({ messages: 0 });
    const all = await runCli(['purge', '--json'], env, 120_000);
    expect(all.stderr).toBe('');
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ messages: 1 });
  }, 600_000);
});
