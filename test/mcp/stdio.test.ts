import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';
import { createPostgresDatabase, DRIVERS, dropPostgresDatabase } from '../helpers/drivers.js';
import { multiParty } from '../helpers/messages.js';
import {
  AGENT_TOOL_NAMES,
  call,
  errorOf,
  ok,
  type StdioSession,
  stdioClient,
  text,
  waitTask,
} from './helpers.js';

/** `node bin/engram.js mcp`, spawned by a real MCP client (run `npm run build` first). */

const dirs: string[] = [];
const newDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-mcp-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const lockPid = (dir: string): number | undefined => {
  try {
    return (JSON.parse(readFileSync(join(dir, 'engram.lock'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
};

describe.each(DRIVERS)('engram mcp over stdio [%s]', (driver) => {
  let env: Record<string, string>;
  let session: StdioSession;
  let dbUrl: string | undefined;

  beforeAll(async () => {
    env = { ENGRAM_DATA_DIR: newDir() };
    if (driver === 'postgres') env['DATABASE_URL'] = dbUrl = await createPostgresDatabase();
    session = await stdioClient(env, ['--tenant', 'acme']);
  });
  afterAll(async () => {
    await session?.client.close();
    if (dbUrl) await dropPostgresDatabase(dbUrl);
  });

  it('speaks only MCP on stdout and lists tools, templates and the prompt', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(AGENT_TOOL_NAMES);
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThanOrEqual(5);
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('recall_context');
    // the handshake is answered while the store opens; the log says when it is open
    const until = Date.now() + 60_000;
    while (!session.stderr().includes('serving MCP on stdio') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(session.stderr()).toContain('serving MCP on stdio');
    expect(session.errors).toEqual([]);
  });

  it('remembers, processes in the background, and recalls', async () => {
    const { client } = session;
    const r = await ok(client, 'remember', { session_id: 'lisbon', messages: multiParty() });
    expect(r.status).toBe('queued');
    expect((await waitTask(client, r.task_id)).status).toBe('success');
    await ok(client, 'flush_session', { session_id: 'lisbon' });
    const got = await ok(client, 'get_memories', { memory_type: 'episode', user_id: 'alice' });
    expect(got.total_count).toBeGreaterThan(0);
    const found = await call(client, 'recall', { query: 'vegetarian restaurant Alfama', user_id: 'bob' });
    expect(found.isError).toBeFalsy();
    expect(text(found)).toMatch(/Alfama|vegetarian|Ao 26/i);
    const { resources } = await client.listResources();
    expect(resources.map((x) => x.uri)).toContain('engram://default/default/users/alice/episodes');
    expect(session.errors).toEqual([]);
  });

  it('answers a bad argument with an isError result', async () => {
    const r = await call(session.client, 'get_memories', { memory_type: 'episode' });
    expect(r.isError).toBe(true);
    expect(errorOf(r)).toMatchObject({ code: 'InvalidParameter', status_code: 422 });
  });
});

describe('engram mcp on a data dir another engram owns [pglite]', () => {
  it('bridges to a running engram serve instead of opening the store', async () => {
    const dir = newDir();
    const serve = await startServe(dir);
    let session: StdioSession | undefined;
    try {
      const key = (
        await runCli(['keys', 'create', '--tenant', 'acme'], { ENGRAM_DATA_DIR: dir })
      ).stdout.trim();
      session = await stdioClient({ ENGRAM_DATA_DIR: dir }, ['--tenant', 'acme']);
      expect(lockPid(dir)).toBe(serve.child.pid);
      const r = await ok(session.client, 'remember', {
        note: 'Prefers window seats on trains.',
        user_id: 'gil',
      });
      // the serve process holds the write: its REST API reports the task
      const task = await fetch(`${serve.url}/api/v2/tasks/${r.task_id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(task.status).toBe(200);
      const add = await fetch(`${serve.url}/api/v2/memory/add`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ session_id: 'rest', messages: multiParty() }),
      });
      expect(add.status).toBe(200);
      await ok(session.client, 'flush_session', { session_id: 'rest' });
      const got = await ok(session.client, 'get_memories', { memory_type: 'episode', user_id: 'alice' });
      expect(got.total_count).toBeGreaterThan(0);
      expect(session.errors).toEqual([]);
      await session.client.close();
      session = undefined;
      expect((await fetch(`${serve.url}/health`)).status).toBe(200);
    } finally {
      await session?.client.close();
      await serve.stop();
    }
  });

  it('lets a second engram mcp work through the first, which owns the dir', async () => {
    const dir = newDir();
    const first = await stdioClient({ ENGRAM_DATA_DIR: dir }, ['--tenant', 'acme']);
    const ownerPid = first.transport.pid!;
    expect(lockPid(dir)).toBe(ownerPid);
    const second = await stdioClient({ ENGRAM_DATA_DIR: dir }, ['--tenant', 'acme']);
    try {
      expect(lockPid(dir)).toBe(ownerPid);
      const r = await ok(second.client, 'remember', { note: 'Likes green tea.', user_id: 'hana' });
      expect((await waitTask(first.client, r.task_id)).status).toBe('success');
      // a keys command works through the stdio owner too
      expect((await runCli(['keys', 'list', '--json'], { ENGRAM_DATA_DIR: dir })).code).toBe(0);
    } finally {
      await second.client.close();
      await first.client.close();
    }
    expect(existsSync(join(dir, 'engram.lock'))).toBe(false);
  }, 240_000);
});
