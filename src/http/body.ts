import type { Context } from 'hono';
import type { z } from 'zod';
import { validate } from '../contract/validate.js';
import { EngramError } from '../core/errors.js';

/** Parses the JSON body and validates it with the operation's schema (422 on failure). */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
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

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  return validate(schema, c.req.query(), ['query']);
}
