/**
 * The fuzzer's grammar: fast-check arbitraries derived from JSON Schemas (the ones engram
 * publishes in /openapi.json and in MCP tools/list), where every value is either drawn from
 * its schema or, now and then, replaced by a hostile one (deep nesting, NUL characters,
 * numbers and dates outside every range, wrong types, huge strings).
 */
import fc from 'fast-check';

type Schema = Record<string, any>;

/**
 * Values nested thousands deep, which JSON.stringify cannot write: they stand in the
 * generated values as placeholders and toJson splices their text in.
 */
const DEEP_TEXT = [
  `${'['.repeat(5000)}1${']'.repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`,
  `${'{"AND":['.repeat(1000)}{"user_id":"u1"}${']}'.repeat(1000)}`,
  `${'{"OR":[{"user_id":"u1"},'.repeat(1000)}{"user_id":"u2"}${']}'.repeat(1000)}`,
];
const DEEP = DEEP_TEXT.map((_, i) => `\u0001deep${i}\u0001`);
const PLACEHOLDER = /"\\u0001deep(\d+)\\u0001"/g;

/** JSON text of a generated value, with the deep values spliced in. */
export function toJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(PLACEHOLDER, (_, i: string) => DEEP_TEXT[Number(i)]!);
}

const HOSTILE_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '%00',
  '\ud800',
  '\uffff',
  'x'.repeat(100_000),
  '../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE messages; --',
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '2026-13-45T99:99:99Z',
  '99999999999999999999',
  '1e309',
  'NaN',
  '-0',
  '\u202e\u0000\ufeff',
  'ünïcødé 🦀 文字',
];

const HOSTILE_NUMBERS = [
  1e300,
  -1e300,
  9_000_000_000_000_000,
  Number.MAX_SAFE_INTEGER + 2,
  -1,
  0,
  1.5,
  1_700_000_000,
  2 ** 63,
  -(2 ** 63),
  8.64e15 + 1,
];

export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...DEEP),
  fc.constantFrom(null, true, false, {}, [], [null], { $gt: 1 }, { __proto__: { polluted: 1 } }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Names drawn from a small pool so that requests meet each other's data. */
export const NAMES = ['u1', 'u2', 'alice', 'agent-1', 's1', 's2', 'default'];
const TEXT = [
  'I moved to Porto last spring and started learning to surf.',
  'My sister Mira is a veterinarian in Ghent.',
  'Remind me that the garage door code changed.',
  'The build fails when the cache is cold; retrying fixes it.',
  'We adopted a grey cat called Pixel.',
];

export interface GrammarOptions {
  /** Weight of a hostile value against a schema-drawn one at each node (default 1 in 8). */
  hostileWeight?: number;
  /** Resolves `#/components/schemas/...` references. */
  components?: Record<string, Schema>;
  /**
   * Values from the target's store (ids of memories it holds), drawn wherever a string
   * pattern admits them, so that requests naming a memory can also name one that exists.
   */
  known?: string[];
}

/** An arbitrary over (mostly) valid values of schema, with hostile values mixed in. */
export function fromSchema(schema: Schema, opts: GrammarOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const valid = validArb(schema, opts, depth);
  const w = opts.hostileWeight ?? 1;
  if (w === 0) return valid;
  return fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: hostile, weight: w });
}

function validArb(schema: Schema, opts: GrammarOptions, depth: number): fc.Arbitrary<unknown> {
  if (depth > 8) return fc.constant(null);
  if (schema['$ref']) {
    const name = String(schema['$ref']).split('/').pop()!;
    const target = opts.components?.[name];
    return target ? validArb(target, opts, depth + 1) : fc.constant(null);
  }
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const alts = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(alts) && alts.length)
    return fc.oneof(...alts.map((s: Schema) => validArb(s, opts, depth + 1)));
  if (Array.isArray(schema['allOf']) && schema['allOf'].length)
    return validArb(schema['allOf'][0], opts, depth + 1);
  const type = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  const arbs = type.map((t: string | undefined) => byType(t, schema, opts, depth));
  return arbs.length === 1 ? arbs[0]! : fc.oneof(...arbs);
}

function byType(
  type: string | undefined,
  s: Schema,
  opts: GrammarOptions,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const min = typeof s['minimum'] === 'number' ? s['minimum'] : -1000;
      const max = typeof s['maximum'] === 'number' ? s['maximum'] : Math.max(min + 1000, 1000);
      const lo = Math.max(min, Number.MIN_SAFE_INTEGER);
      const hi = Math.min(max, Number.MAX_SAFE_INTEGER);
      // Unix-ms fields (minimum 1e12) get realistic times, not the far end of the range.
      const near =
        lo >= 1e12
          ? fc.integer({ min: lo, max: lo + 1e12 })
          : fc.integer({ min: lo, max: Math.min(hi, lo + 1e6) });
      return type === 'integer' ? near : fc.oneof(near, fc.double({ min: lo, max: hi, noNaN: true }));
    }
    case 'string': {
      const max = typeof s['maxLength'] === 'number' ? s['maxLength'] : 200;
      const min = typeof s['minLength'] === 'number' ? s['minLength'] : 0;
      const fits = (v: string) => v.length >= min && v.length <= max;
      if (typeof s['pattern'] === 'string') {
        const re = new RegExp(s['pattern'], 'u');
        const named = [...NAMES, ...TEXT, ...(opts.known ?? [])].filter((v) => fits(v) && re.test(v));
        if (named.length) return fc.constantFrom(...named);
      }
      return fc.oneof(
        fc.constantFrom(...NAMES, ...TEXT).filter(fits),
        fc.string({ minLength: min, maxLength: Math.min(max, 60) }),
        fc
          .date({ min: new Date(0), max: new Date(4_102_444_800_000), noInvalidDate: true })
          .map((d) => d.toISOString()),
      );
    }
    case 'array': {
      const items = (s['items'] as Schema | undefined) ?? {};
      const minLength = typeof s['minItems'] === 'number' ? s['minItems'] : 0;
      const maxLength = Math.min(typeof s['maxItems'] === 'number' ? s['maxItems'] : 5, minLength + 5);
      return fc.array(fromSchema(items, opts, depth + 1), { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
      if (Object.keys(props).length === 0)
        return fc.dictionary(fc.constantFrom(...NAMES), filler(opts), { maxKeys: 2 });
      const model = Object.fromEntries(
        Object.entries(props).map(([k, v]) => [k, fromSchema(v, opts, depth + 1)]),
      );
      const required = (s['required'] as string[] | undefined) ?? [];
      return fc.record(model, { requiredKeys: required.filter((k) => k in props) });
    }
    default:
      return filler(opts);
  }
}

/** Any value: a hostile one unless hostile values are turned off. */
function filler(opts: GrammarOptions): fc.Arbitrary<unknown> {
  return opts.hostileWeight === 0 ? fc.jsonValue({ maxDepth: 2 }) : hostile;
}
