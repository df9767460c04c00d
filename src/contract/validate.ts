import type { z } from 'zod';
import { EngramError, fromZod } from '../core/errors.js';

/** Deepest nesting of arrays and objects any input may have (a filter tree needs far less). */
export const MAX_INPUT_DEPTH = 64;

/**
 * Validates raw input (a parsed REST body, query, path parameters, MCP tool arguments)
 * with an operation's schema. Throws the InvalidParameter EngramError both transports
 * report. Before the schema (which recurses) sees anything, one iterative pass refuses
 * input nested deeper than MAX_INPUT_DEPTH and strings holding NUL, which PostgreSQL text
 * cannot store.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  root: (string | number)[] = ['body'],
): z.output<S> {
  const problem = shapeProblem(raw);
  if (problem === 'depth')
    throw new EngramError('InvalidParameter', `input is nested deeper than ${MAX_INPUT_DEPTH} levels`, {
      issues: [{ loc: root, msg: `nested deeper than ${MAX_INPUT_DEPTH} levels`, type: 'too_deep' }],
    });
  if (problem === 'nul')
    throw new EngramError('InvalidParameter', 'strings may not contain the NUL character (\\u0000)', {
      issues: [{ loc: root, msg: 'strings may not contain the NUL character', type: 'string_nul' }],
    });
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw fromZod(parsed.error, root);
  return parsed.data;
}

/** 'depth' or 'nul' for input no schema should see, without recursion. */
function shapeProblem(raw: unknown): 'depth' | 'nul' | undefined {
  const stack: [unknown, number][] = [[raw, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\0')) return 'nul';
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return 'depth';
      if (Array.isArray(v)) for (const x of v) stack.push([x, depth + 1]);
      else
        for (const [k, x] of Object.entries(v)) {
          if (k.includes('\0')) return 'nul';
          stack.push([x, depth + 1]);
        }
    }
  }
  return undefined;
}
