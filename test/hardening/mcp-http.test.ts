import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { httpClient } from '../mcp/helpers.js';

/** MCP at /mcp answers like the REST routes: request ids, one error prefix, Origin, 405. */

const ACCEPT = 'application/json, text/event-stream';
const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
};

/** A raw POST /mcp with the given headers (node:http, so Host and Origin are ours to set). */
function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  const u = new URL(`${url}/mcp`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('ENGRAM_ALLOWED_ORIGINS', () => {
  it('takes a comma-separated list of origins and refuses anything else', () => {
    const c = loadConfig({ ENGRAM_ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:5173' });
    expect(c.allowedOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(loadConfig({}).allowedOrigins).toEqual([]);
    expect(() => loadConfig({ ENGRAM_ALLOWED_ORIGINS: 'https://app.example.com/path' })).toThrow(
      /ENGRAM_ALLOWED_ORIGINS/,
    );
    expect(() => loadConfig({ ENGRAM_ALLOWED_ORIGINS: 'not a url' })).toThrow(/ENGRAM_ALLOWED_ORIGINS/);
  });
});

describe.each(DRIVERS)('MCP over HTTP held to the REST standards [%s]', (driver) => {
  let loop: TestServer;
  let open: TestServer;
  let key: string;
  let openKey: string;
  let client: Client;

  beforeAll(async () => {
    loop = await startTestServer(driver, { ENGRAM_ALLOWED_ORIGINS: 'https://app.example.com' });
    open = await startTestServer(driver, {
      ENGRAM_HOST: '0.0.0.0',
      ENGRAM_ALLOWED_ORIGINS: 'https://app.example.com',
    });
    key = await loop.key('tenant-a');
    openKey = await open.key('tenant-a');
    client = await httpClient(loop.url, key);
  });
  afterAll(async () => {
    await client?.close();
    await loop?.close();
    await open?.close();
  });

  it('puts X-Request-Id on every /mcp answer, echoing a well-formed one', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const init = await post(loop.url, auth, INIT);
    expect(init.status).toBe(200);
    expect(init.headers['x-request-id']).toMatch(/^req_/);
    const sid = init.headers['mcp-session-id'] as string;
    const version = { ...auth, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
    const mine = await post(
      loop.url,
      { ...version, 'x-request-id': 'caller-42' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_task', arguments: { task_id: 'task_nope' } },
      },
    );
    expect(mine.status).toBe(200);
    expect(mine.headers['x-request-id']).toBe('caller-42');
    const listed = await post(loop.url, version, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(listed.headers['x-request-id']).toMatch(/^req_/);
    const unknownSession = await post(loop.url, { ...version, 'mcp-session-id': 'nope' }, INIT);
    expect(unknownSession.status).toBe(404);
    expect(unknownSession.headers['x-request-id']).toMatch(/^req_/);
    const badJson = await post(loop.url, auth, '{');
    expect(badJson.headers['x-request-id']).toMatch(/^req_/);
    const refused = await post(loop.url, { ...auth, origin: 'https://evil.example' }, INIT);
    expect(refused.status).toBe(403);
    expect(refused.headers['x-request-id']).toMatch(/^req_/);
  });

  it('says "MCP error <code>" once: the wire message carries no prefix, the client adds one', async () => {
    const missing = `engram://default/default/episodes/${'0'.repeat(24)}`;
    const err = await client.readResource({ uri: missing }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^MCP error -32002: /);
    expect(err?.message.match(/MCP error/g)).toHaveLength(1);
    const promptErr = await client.getPrompt({ name: 'recall_context', arguments: { query: '' } }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(promptErr?.message.match(/MCP error/g)).toHaveLength(1);
    const auth = { authorization: `Bearer ${key}` };
    const init = await post(loop.url, auth, INIT);
    const sid = init.headers['mcp-session-id'] as string;
    const raw = await post(
      loop.url,
      { ...auth, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: missing } },
    );
    expect(raw.body.error.code).toBe(-32002);
    expect(raw.body.error.message).not.toMatch(/MCP error/);
    expect(raw.body.error.message).toMatch(/not found/);
  });

  it('answers params that do not fit the method with -32602, not an internal error', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const init = await post(loop.url, auth, INIT);
    const headers = {
      ...auth,
      'mcp-session-id': init.headers['mcp-session-id'] as string,
      'mcp-protocol-version': '2025-06-18',
    };
    const bad = [
      { method: 'tools/call', params: { name: 'no_such_tool', arguments: [] } },
      { method: 'prompts/get', params: { name: 'recall_context', arguments: { query: 'x', user_id: true } } },
      { method: 'resources/read', params: { uri: 42 } },
      { method: 'prompts/get', params: { name: 'recall_context', arguments: { query: 'a\u0000b' } } },
      {
        method: 'prompts/get',
        params: { name: 'recall_context', arguments: { query: 'trip', user_id: 'a\u0000b' } },
      },
    ];
    for (const [i, msg] of bad.entries()) {
      const r = await post(loop.url, headers, { jsonrpc: '2.0', id: 100 + i, ...msg });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ id: 100 + i, error: { code: -32602 } });
      expect(r.body.error.message).toMatch(/^Invalid params for /);
    }
    // a known tool's arguments are the tool's to judge: a tool error like REST's 422
    const tool = await post(loop.url, headers, {
      jsonrpc: '2.0',
      id: 150,
      method: 'tools/call',
      params: { name: 'recall', arguments: 'text' },
    });
    expect(tool.body.result.isError).toBe(true);
    expect(JSON.parse(tool.body.result.content[0].text).error.status_code).toBe(422);
    // and the session still works
    const ok = await post(loop.url, headers, { jsonrpc: '2.0', id: 200, method: 'tools/list' });
    expect(ok.body.result.tools.length).toBeGreaterThan(0);
  });

  it('refuses an Origin outside ENGRAM_ALLOWED_ORIGINS on a non-loopback bind', async () => {
    const auth = { authorization: `Bearer ${openKey}` };
    const evil = await post(open.url, { ...auth, origin: 'https://evil.example' }, INIT);
    expect(evil.status).toBe(403);
    expect(evil.body.error.message).toMatch(/Origin/);
    const sessions = await post(open.url, { ...auth, origin: 'https://app.example.com' }, INIT);
    expect(sessions.status).toBe(200);
    const none = await post(open.url, auth, INIT);
    expect(none.status).toBe(200);
  });

  it('on a loopback bind, takes loopback Origins and the allowed ones, and nothing else', async () => {
    const auth = { authorization: `Bearer ${key}` };
    expect((await post(loop.url, { ...auth, origin: 'http://localhost:3000' }, INIT)).status).toBe(200);
    expect((await post(loop.url, { ...auth, origin: 'https://app.example.com' }, INIT)).status).toBe(200);
    expect((await post(loop.url, { ...auth, origin: 'https://app.example.com:444' }, INIT)).status).toBe(403);
    expect((await post(loop.url, { ...auth, origin: 'null' }, INIT)).status).toBe(403);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await fetch(`${loop.url}/mcp`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toMatch(/POST/);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    await res.text();
  });
});
