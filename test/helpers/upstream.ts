import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';

/** The upstream OpenAPI, read in place from the shared folder beside the clone. */
const REFERENCE = 'reference/everos-cloud-openapi.json';
export const UPSTREAM_PATH = [
  process.env['ENGRAM_UPSTREAM_OPENAPI'],
  fileURLToPath(new URL(`../../../shared/${REFERENCE}`, import.meta.url)),
  `/work/shared/${REFERENCE}`,
].find((p): p is string => !!p && existsSync(p));

let ajv: Ajv2020 | undefined;

/** Validation errors of value against one upstream component schema ([] when it conforms). */
export function upstreamErrors(schema: string, value: unknown): unknown[] {
  if (!UPSTREAM_PATH)
    throw new Error(`upstream OpenAPI not found: set ENGRAM_UPSTREAM_OPENAPI to ${REFERENCE}`);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ ...JSON.parse(readFileSync(UPSTREAM_PATH, 'utf8')), $id: 'upstream' }, 'upstream');
  }
  const ok = ajv.validate({ $ref: `upstream#/components/schemas/${schema}` }, value);
  return ok ? [] : (ajv.errors ?? [{ message: 'invalid' }]);
}
