import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { T0, user } from '../helpers/messages.js';
import { REFERENCE, UPSTREAM_PATH } from '../helpers/upstream.js';

/**
 * GET /openapi.json: valid OpenAPI 3.1, derived from the contract schemas (a real request
 * and a real answer validate against it), and in step with the upstream OpenAPI for every
 * operation both describe: same paths and methods, same required fields.
 */
type Json = Record<string, any>;

const resolve = (doc: Json, s: Json | undefined): Json | undefined => {
  let cur = s;
  while (cur?.['$ref']) {
    const parts = (cur['$ref'] as string).replace(/^#\//, '').split('/');
    cur = parts.reduce<Json>((o, p) => o?.[p], doc);
  }
  return cur;
};
const required = (doc: Json, s: Json | undefined): string[] =>
  [...(resolve(doc, s)?.['required'] ?? [])].sort();
const bodySchema = (op: Json) => op['requestBody']?.content?.['application/json']?.schema;
const successSchema = (op: Json) => {
  const code = Object.keys(op['responses']).find((c) => c.startsWith('2'))!;
  return op['responses'][code].content?.['application/json']?.schema;
};
const params = (op: Json, where: string) =>
  (op['parameters'] ?? [])
    .filter((p: Json) => p['in'] === where)
    .map((p: Json) => `${p['name']}${p['required'] ? '!' : ''}`)
    .sort();

describe('OpenAPI document', () => {
  let s: TestServer;
  let doc: Json;
  beforeAll(async () => {
    s = await startTestServer('pglite');
    const r = await s.call('GET', '/openapi.json');
    expect(r.status).toBe(200);
    doc = r.body;
  });
  afterAll(async () => {
    await s?.close();
  });

  it('is valid OpenAPI 3.1 and needs no key', async () => {
    expect(doc['openapi']).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // every mounted v2 route is described
    for (const p of ['/api/v2/memory/add', '/api/v2/memory/search', '/api/v2/tasks/{task_id}'])
      expect(Object.keys(doc['paths'])).toContain(p);
  });

  it('describes what the routes really take and answer', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...doc, $id: 'engram' }, 'engram');
    const check = (s: Json, value: unknown) => {
      const ref = (s['$ref'] as string).replace(/^#/, 'engram#');
      const ok = ajv.validate({ $ref: ref }, value);
      return ok ? [] : (ajv.errors ?? [{ message: 'invalid' }]);
    };
    const op = doc['paths']['/api/v2/memory/add']['post'];
    const body = { session_id: 's1', messages: [user('ana', 'I keep bees on my roof in Ghent.', T0)] };
    expect(check(bodySchema(op), body)).toEqual([]);
    expect(check(bodySchema(op), { messages: [] }).length).toBeGreaterThan(0);
    const key = await s.key();
    const answer = await s.call('POST', '/api/v2/memory/add', { key, body });
    expect(answer.status).toBe(200);
    expect(check(successSchema(op), answer.body)).toEqual([]);
    const search = await s.call('POST', '/api/v2/memory/search', {
      key,
      body: { query: 'bees', user_id: 'ana' },
    });
    expect(check(successSchema(doc['paths']['/api/v2/memory/search']['post']), search.body)).toEqual([]);
    const bad = await s.call('POST', '/api/v2/memory/add', { key, body: {} });
    expect(check(op['responses']['422'].content['application/json'].schema, bad.body)).toEqual([]);
  });

  it('matches the upstream OpenAPI operation by operation', () => {
    if (!UPSTREAM_PATH)
      throw new Error(`upstream OpenAPI not found: set ENGRAM_UPSTREAM_OPENAPI to ${REFERENCE}`);
    const upstream = JSON.parse(readFileSync(UPSTREAM_PATH, 'utf8')) as Json;
    let compared = 0;
    const differences: string[] = [];
    const same = (where: string, ours: unknown, theirs: unknown) => {
      if (JSON.stringify(ours) !== JSON.stringify(theirs))
        differences.push(`${where}: ours ${JSON.stringify(ours)}, upstream ${JSON.stringify(theirs)}`);
    };
    for (const [path, ops] of Object.entries<Json>(doc['paths']))
      for (const [method, op] of Object.entries<Json>(ops)) {
        const theirs = upstream['paths'][path]?.[method];
        if (!theirs) continue;
        compared++;
        const where = `${method.toUpperCase()} ${path}`;
        same(`${where} path parameters`, params(op, 'path'), params(theirs, 'path'));
        same(`${where} query parameters`, params(op, 'query'), params(theirs, 'query'));
        same(`${where} has a body`, !!bodySchema(op), !!bodySchema(theirs));
        same(
          `${where} required body fields`,
          required(doc, bodySchema(op)),
          required(upstream, bodySchema(theirs)),
        );
        // an answer may carry more than upstream requires, never less
        const data = (d: Json, s: Json | undefined) => resolve(d, resolve(d, s)?.['properties']?.['data']);
        const ours = required(doc, data(doc, successSchema(op)));
        const missing = required(upstream, data(upstream, successSchema(theirs))).filter(
          (f) => !ours.includes(f),
        );
        same(`${where} answer fields upstream requires that engram does not`, missing, []);
      }
    expect(differences).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(11);
  });
});
