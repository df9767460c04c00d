import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { multiParty } from '../helpers/messages.js';
import { httpClient, ok } from '../mcp/helpers.js';

/** GET /metrics: Prometheus text with the HTTP, MCP, queue, extraction, embedding and store series. */
describe.each(DRIVERS)('metrics and access log [%s]', (driver) => {
  let s: TestServer;
  let mcp: Client;
  const logLines: string[] = [];

  beforeAll(async () => {
    s = await startTestServer(
      driver,
      { ENGRAM_ACCESS_LOG: 'true' },
      { log: createLogger('info', (l) => logLines.push(l)) },
    );
    const key = await s.key();
    expect(
      (
        await s.call('POST', '/api/v2/memory/add', {
          key,
          body: { session_id: 'm1', messages: multiParty() },
        })
      ).status,
    ).toBe(200);
    expect((await s.call('POST', '/api/v2/memory/flush', { key, body: { session_id: 'm1' } })).status).toBe(
      200,
    );
    const queued = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 'm2', messages: multiParty(), async_mode: true },
    });
    expect((await s.call('GET', `/api/v2/tasks/${queued.body.data.task_id}`, { key })).status).toBe(200);
    await s.engram.queue.drain();
    expect((await s.call('GET', '/api/v2/no/such/route', { key })).status).toBe(404);
    expect((await s.call('POST', '/api/v2/memory/add', { body: {} })).status).toBe(401);
    mcp = await httpClient(s.url, key);
    await ok(mcp, 'recall', { query: 'Lisbon', user_id: 'alice' });
  });
  afterAll(async () => {
    await mcp?.close();
    await s?.close();
  });

  const sample = (text: string, name: string, labels: Record<string, string>): number | undefined => {
    const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
      const inner = line.slice(name.length).match(/^\{([^}]*)\}/)?.[1] ?? '';
      const have = inner ? inner.split(/,(?=[a-z_]+=")/) : [];
      if (want.every((w) => have.includes(w))) return Number(line.split(' ').at(-1));
    }
    return undefined;
  };

  it('serves Prometheus text without a key', async () => {
    const res = await fetch(`${s.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const count = (name: string, labels: Record<string, string>) => sample(text, `${name}_count`, labels);
    // requests by route pattern and status, never by raw path
    expect(
      count('engram_http_request_duration_seconds', {
        method: 'POST',
        route: '/api/v2/memory/add',
        status: '200',
      }),
    ).toBe(1);
    expect(
      count('engram_http_request_duration_seconds', {
        method: 'POST',
        route: '/api/v2/memory/add',
        status: '202',
      }),
    ).toBe(1);
    expect(
      count('engram_http_request_duration_seconds', {
        method: 'POST',
        route: '/api/v2/memory/add',
        status: '401',
      }),
    ).toBe(1);
    expect(
      count('engram_http_request_duration_seconds', {
        method: 'GET',
        route: '/api/v2/tasks/:task_id',
        status: '200',
      }),
    ).toBe(1);
    expect(
      count('engram_http_request_duration_seconds', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(1);
    expect(text).not.toContain('task_0');
    expect(sample(text, 'engram_http_requests_total', { route: '/api/v2/memory/flush', status: '200' })).toBe(
      1,
    );
    // MCP tools, background jobs, extraction and embedding
    expect(count('engram_mcp_tool_duration_seconds', { tool: 'recall', outcome: 'ok' })).toBe(1);
    expect(
      count('engram_task_duration_seconds', { type: 'memory.process', outcome: 'success' }),
    ).toBeGreaterThanOrEqual(3);
    expect(
      count('engram_extraction_duration_seconds', { step: 'extract', extractor: 'offline', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'engram_embedded_texts_total', {})).toBeGreaterThan(0);
    expect(count('engram_embedding_duration_seconds', { outcome: 'ok' })).toBeGreaterThan(0);
    // queue depth per state and the store's connections
    for (const state of ['queued', 'processing', 'pending'])
      expect(sample(text, 'engram_queue_depth', { state })).toBe(0);
    expect(sample(text, 'engram_db_pool_max', {})).toBe(1);
    expect(sample(text, 'engram_db_connections_in_use', {})).toBeGreaterThanOrEqual(0);
    expect(count('engram_db_duration_seconds', { kind: 'transaction' })).toBeGreaterThan(0);
    expect(sample(text, 'engram_process_resident_memory_bytes', {})).toBeGreaterThan(0);
  });

  it('writes one access-log line per request when ENGRAM_ACCESS_LOG is on', () => {
    const lines = logLines
      .filter((l) => / info +request \{/.test(l))
      .map((l) => JSON.parse(l.slice(l.indexOf('{'))));
    expect(lines).toContainEqual(
      expect.objectContaining({
        method: 'GET',
        route: '/api/v2/tasks/:task_id',
        status: 200,
        request_id: expect.any(String),
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ path: '/api/v2/no/such/route', route: 'unmatched', status: 404 }),
    );
  });
});
