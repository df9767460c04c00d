import type { z } from 'zod';
import { EngramError, fromZod } from '../core/errors.js';

/** Deepest nesting of arrays and objects any input may have (a filter tree needs far less). */
export const MAX_INPUT_DEPTH = 64;

/**
 * Validates raw input (a parsed REST body, query, path parameters, MCP tool arguments)
 * with an operation's schema. Throws the InvalidParameter EngramError both transports
 * report. Before the schema (which recurses) sees anything, one iterative pass refuses
 * input nested deeper than MAX_INPUT_DEPTH and strings holding NUL, which PostgreSQL text
 * cannot store, and replaces each lone UTF-16 surrogate (in values and keys) with U+FFFD,
 * as UTF-8 encoding does to a text parameter: jsonb refuses the escape JSON.stringify
 * writes for one, so no input string may reach a statement with it.
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

type Problem = 'depth' | 'nul';
type WellFormed = string & { isWellFormed(): boolean; toWellFormed(): string };

/** The string with lone surrogates replaced by U+FFFD; 'nul' when it holds NUL. */
function clean(v: string): string | 'nul' {
  if (v.includes('\0')) return 'nul';
  return (v as WellFormed).isWellFormed() ? v : (v as WellFormed).toWellFormed();
}

/**
 * 'depth' or 'nul' for input no schema should see, without recursion; otherwise
 * undefined, with every string in raw's objects and arrays made well-formed in place (raw
 * is input parsed for this request alone). A string at the root is only checked.
 */
function shapeProblem(raw: unknown): Problem | undefined {
  if (typeof raw === 'string') return clean(raw) === 'nul' ? 'nul' : undefined;
  const stack: [unknown, number][] = [[raw, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return 'depth';
    const slots: Record<string, unknown> = v as Record<string, unknown>;
    for (const k of Object.keys(slots)) {
      let x = slots[k];
      if (typeof x === 'string') {
        const c = clean(x);
        if (c === 'nul') return 'nul';
        if (c !== x) slots[k] = x = c;
      }
      if (!Array.isArray(v)) {
        const ck = clean(k);
        if (ck === 'nul') return 'nul';
        if (ck !== k) {
          delete slots[k];
          slots[ck] = x;
        }
      }
      stack.push([x, depth + 1]);
    }
  }
  return undefined;
}
