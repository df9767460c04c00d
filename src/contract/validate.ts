import type { z } from 'zod';
import { EngramError, fromZod } from '../core/errors.js';

/**
 * Validates raw input (a parsed REST body, MCP tool arguments) with an operation's schema.
 * Throws the InvalidParameter EngramError both transports report; strings holding NUL are
 * refused up front because PostgreSQL text cannot store them.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  root: (string | number)[] = ['body'],
): z.output<S> {
  if (hasNul(raw))
    throw new EngramError('InvalidParameter', 'strings may not contain the NUL character (\\u0000)', {
      issues: [{ loc: root, msg: 'strings may not contain the NUL character', type: 'string_nul' }],
    });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, root);
  return parsed.data;
}

function hasNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (Array.isArray(v)) return v.some(hasNul);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => k.includes('\0') || hasNul(x));
  return false;
}
