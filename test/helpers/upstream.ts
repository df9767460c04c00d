import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * The upstream OpenAPI (read in place from the shared folder beside the clone) and a
 * validator of answers against its response schemas.
 */
export const REFERENCE = 'reference/everos-cloud-openapi.json';
export const UPSTREAM_PATH = [
  process.env['ENGRAM_UPSTREAM_OPENAPI'],
  fileURLToPath(new URL(`../../../shared/${REFERENCE}`, import.meta.url)),
  `/work/shared/${REFERENCE}`,
].find((p): p is string => !!p && existsSync(p));

type Json = Record<string, any>;
let cached: { doc: Json; ajv: Ajv2020 } | undefined;

function upstream(): { doc: Json; ajv: Ajv2020 } {
  if (cached) return cached;
  if (!UPSTREAM_PATH)
    throw new Error(`upstream OpenAPI not found: set ENGRAM_UPSTREAM_OPENAPI to ${REFERENCE}`);
  const doc = JSON.parse(readFileSync(UPSTREAM_PATH, 'utf8')) as Json;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ ...doc, $id: 'upstream' }, 'upstream');
  cached = { doc, ajv };
  return cached;
}

/**
 * Errors of `body` against the upstream schema of `method path` answering `status`
 * ([] when it validates). `path` uses the upstream template (`/api/v2/x/{id}`).
 */
export function upstreamErrors(method: string, path: string, status: number, body: unknown): unknown[] {
  const { doc, ajv } = upstream();
  const op = doc['paths'][path]?.[method.toLowerCase()];
  if (!op) throw new Error(`upstream has no ${method} ${path}`);
  const schema = op['responses'][String(status)]?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`upstream ${method} ${path} has no JSON answer for ${status}`);
  const ref = (schema['$ref'] as string).replace(/^#/, 'upstream#');
  return ajv.validate({ $ref: ref }, body) ? [] : (ajv.errors ?? [{ message: 'invalid' }]);
}

/** Errors of `value` against one upstream component schema ([] when it conforms). */
export function componentErrors(schema: string, value: unknown): unknown[] {
  const { ajv } = upstream();
  const ok = ajv.validate({ $ref: `upstream#/components/schemas/${schema}` }, value);
  return ok ? [] : (ajv.errors ?? [{ message: 'invalid' }]);
}
