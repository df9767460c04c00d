import type { Context } from 'hono';
import type { z } from 'zod';
import { validate } from '../contract/validate.js';
import { EngramError, invalid } from '../core/errors.js';

/**
 * Parses the JSON body (or, when the operation takes one, a multipart/form-data body
 * through `form`) and validates it with the operation's schema (422 on failure).
 */
export async function parseBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  form?: (form: FormData) => Promise<unknown>,
): Promise<z.output<S>> {
  if (form && /^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) {
    let data: FormData;
    try {
      data = await c.req.formData();
    } catch {
      throw invalid('body', 'request body is not valid multipart/form-data');
    }
    return validate(schema, await form(data));
  }
  let raw: unknown;
  const text = await c.req.text();
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new EngramError('InvalidParameter', 'request body is not valid JSON', {
      issues: [{ loc: ['body'], msg: 'request body is not valid JSON', type: 'json_invalid' }],
    });
  }
  return validate(schema, raw);
}

/** Validates the query string; a key given more than once arrives as an array (`tag_ids=a&tag_ids=b`). */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const raw = Object.fromEntries(
    Object.entries(c.req.queries()).map(([k, v]) => [k, v.length === 1 ? v[0] : v]),
  );
  return validate(schema, raw, ['query']);
}
