import type { Context } from 'hono';
import type { z } from 'zod';
import { EngramError } from '../core/errors.js';
import { fromZod } from './errors.js';

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
  // PostgreSQL text cannot hold NUL: refuse it up front rather than fail on write.
  if (hasNul(raw))
    throw new EngramError('InvalidParameter', 'strings may not contain the NUL character (\\u0000)', {
      issues: [{ loc: ['body'], msg: 'strings may not contain the NUL character', type: 'string_nul' }],
    });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.output<S> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw fromZod(parsed.error, ['query']);
  return parsed.data;
}

function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (Array.isArray(v)) return v.some(hasNul);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => k.includes('\0') || hasNul(x));
  return false;
}
