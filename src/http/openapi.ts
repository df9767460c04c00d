import type { Hono } from 'hono';
import { z } from 'zod';
import { ErrorBody, TaskErrorBody, V1ErrorBody } from '../contract/errors.js';
import type { HttpEnv } from './app.js';
import { styleForPath } from './errors.js';
import { type AnyOperation, findOperation } from './routes/operation.js';

/**
 * GET /openapi.json: an OpenAPI 3.1 document derived from the mounted routes. Each route
 * mounted with `operation()` is described by its own contract schemas (zod 4's JSON Schema
 * export, draft 2020-12, the dialect OpenAPI 3.1 uses); a route mounted otherwise still
 * appears, with its path and method. Built once per app, on first request.
 */
type Json = Record<string, unknown>;

const ERRORS: Record<string, string> = {
  '401': 'Missing or invalid bearer key.',
  '403': 'The key is not allowed here (another API version, or a refused origin).',
  '404': 'Not found.',
  '413': 'Request body too large.',
  '422': 'Invalid input: `detail` lists each problem.',
  '429': 'Rate limit exceeded: retry after `Retry-After` seconds.',
  '503': 'The store or a provider is unavailable: retry after `Retry-After` seconds.',
};

export function openApiDocument(app: Hono<HttpEnv>, version: string): Json {
  const schemas: Record<string, Json> = {};
  const paths: Record<string, Record<string, Json>> = {};
  const add = (name: string, s: z.ZodType, io: 'input' | 'output'): Json => {
    if (!schemas[name]) schemas[name] = toComponent(name, s, io, schemas);
    return { $ref: `#/components/schemas/${name}` };
  };
  add('ErrorBody', ErrorBody, 'output');
  add('TaskErrorBody', TaskErrorBody, 'output');
  add('V1ErrorBody', V1ErrorBody, 'output');
  const errorSchema = { memory: 'ErrorBody', tasks: 'TaskErrorBody', v1: 'V1ErrorBody' } as const;

  const seen = new Set<string>();
  for (const r of app.routes) {
    if (!r.path.startsWith('/api/') || r.path.includes('*') || r.method === 'ALL') continue;
    const method = r.method.toLowerCase();
    if (seen.has(`${method} ${r.path}`)) continue;
    seen.add(`${method} ${r.path}`);
    const path = r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const op = findOperation(r.method, r.path);
    const errorRef = { $ref: `#/components/schemas/${errorSchema[styleForPath(r.path)]}` };
    const errors = Object.fromEntries(
      Object.entries(ERRORS).map(([code, description]) => [
        code,
        { description, content: { 'application/json': { schema: errorRef } } },
      ]),
    );
    paths[path] ??= {};
    paths[path][method] = op
      ? describe(op, path, add, errors)
      : {
          operationId: `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ?? '').toUpperCase())}`,
          summary: `${r.method} ${path}`,
          parameters: pathParams(path, undefined),
          responses: { '200': { description: 'Success.' }, ...errors },
        };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'engram memory API',
      version,
      description:
        'Self-hosted long-term memory for AI agents. Every operation answers `request_id` and `data`; ' +
        'errors answer the documented error body.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    security: [{ BearerAuth: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        BearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An engram API key (`engram keys create`), sent as `Authorization: Bearer <key>`.',
        },
      },
    },
  };
}

function describe(
  op: AnyOperation,
  path: string,
  add: (name: string, s: z.ZodType, io: 'input' | 'output') => Json,
  errors: Json,
): Json {
  const envelope = add(
    `${cap(op.operationId)}Response`,
    op.envelope ?? z.object({ request_id: z.string(), data: op.data }),
    'output',
  );
  const responses: Json = {};
  for (const status of op.statuses ?? [200])
    responses[String(status)] = {
      description: status === 202 ? 'Accepted: processed in the background.' : 'Success.',
      content: { 'application/json': { schema: envelope } },
    };
  const out: Json = {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    parameters: [...pathParams(path, op.params), ...queryParams(op.query)],
    responses: { ...responses, ...errors },
  };
  if (op.body)
    out['requestBody'] = {
      required: true,
      content: { 'application/json': { schema: add(`${cap(op.operationId)}Request`, op.body, 'input') } },
    };
  return out;
}

function pathParams(path: string, schema: z.ZodType | undefined): Json[] {
  const props = schema ? ((jsonSchema(schema, 'input')['properties'] ?? {}) as Record<string, Json>) : {};
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: props[name!] ?? { type: 'string' },
  }));
}

function queryParams(schema: z.ZodType | undefined): Json[] {
  if (!schema) return [];
  const json = jsonSchema(schema, 'input');
  const required = new Set((json['required'] as string[] | undefined) ?? []);
  return Object.entries((json['properties'] ?? {}) as Record<string, Json>).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof s['description'] === 'string' ? { description: s['description'] } : {}),
    schema: s,
  }));
}

function jsonSchema(s: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _drop, ...json } = z.toJSONSchema(s, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  });
  return json as Json;
}

/** A component schema, its local $defs lifted into components as `<name>_<def>`. */
function toComponent(
  name: string,
  s: z.ZodType,
  io: 'input' | 'output',
  schemas: Record<string, Json>,
): Json {
  const { $defs, ...root } = jsonSchema(s, io) as Json & { $defs?: Record<string, Json> };
  const rename = (ref: string) =>
    ref === '#'
      ? `#/components/schemas/${name}`
      : ref.replace(/^#\/\$defs\/(.+)$/, (_, d: string) => `#/components/schemas/${name}_${d}`);
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v).map(([k, x]) => [
          k,
          k === '$ref' && typeof x === 'string' ? rename(x) : rewrite(x),
        ]),
      );
    return v;
  };
  for (const [d, def] of Object.entries($defs ?? {})) schemas[`${name}_${d}`] = rewrite(def) as Json;
  return rewrite(root) as Json;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
