import { parse } from 'postgres-array';

/**
 * Array types for postgres.js without its per-connection type query.
 *
 * With `fetch_types` on (its default), postgres.js asks every new connection for the
 * server's array types from a promise nothing awaits (3.4.9, connection.js
 * fetchArrayTypes): a connection reset during that query is an unhandled rejection, which
 * ends a Node process. engram turns it off and declares the built-in array types itself:
 * their oids are fixed by PostgreSQL (pg_type.dat), and each element is read and written as
 * postgres.js reads and writes the scalar (numbers for int2/int4/oid/float4/float8, strings
 * for int8 and numeric, Dates for dates and timestamps, JSON values for json/jsonb).
 * engram's statements pass lists as JSON; these serializers only make a JS array
 * parameter of one of these types mean what it says instead of its String().
 */
type Kind = 'string' | 'number' | 'boolean' | 'date' | 'json';

/** array oid -> how its elements read and write */
const BUILTIN_ARRAYS: Record<number, Kind> = {
  1000: 'boolean', // bool[]
  1002: 'string', // "char"[]
  1003: 'string', // name[]
  1005: 'number', // int2[]
  1007: 'number', // int4[]
  1009: 'string', // text[]
  1014: 'string', // bpchar[]
  1015: 'string', // varchar[]
  1016: 'string', // int8[]
  1021: 'number', // float4[]
  1022: 'number', // float8[]
  1028: 'number', // oid[]
  1115: 'date', // timestamp[]
  1182: 'date', // date[]
  1185: 'date', // timestamptz[]
  1231: 'string', // numeric[]
  199: 'json', // json[]
  2951: 'string', // uuid[]
  3807: 'json', // jsonb[]
};

const read: Record<Kind, (x: string) => unknown> = {
  string: (x) => x,
  number: (x) => +x,
  boolean: (x) => x === 't',
  date: (x) => new Date(x),
  json: (x) => JSON.parse(x),
};

const write: Record<Kind, (x: unknown) => string> = {
  string: (x) => String(x),
  number: (x) => String(x),
  boolean: (x) => (x === true ? 't' : 'f'),
  date: (x) => (x instanceof Date ? x : new Date(x as string)).toISOString(),
  json: (x) => JSON.stringify(x),
};

/** A PostgreSQL array literal: every element quoted and escaped, NULL for null, nested arrays kept. */
export function arrayLiteral(xs: readonly unknown[], element: (x: unknown) => string): string {
  const item = (x: unknown): string =>
    x === null || x === undefined
      ? 'NULL'
      : Array.isArray(x)
        ? arrayLiteral(x, element)
        : `"${element(x).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  return `{${xs.map(item).join(',')}}`;
}

/** The `types` option of postgres.js: one entry per built-in array type. */
export const builtinArrayTypes = Object.fromEntries(
  Object.entries(BUILTIN_ARRAYS).map(([oid, kind]) => [
    `array${oid}`,
    {
      to: Number(oid),
      from: [Number(oid)],
      serialize: (xs: unknown[]) => arrayLiteral(xs, write[kind]),
      parse: (x: string) => parse(x, read[kind]),
    },
  ]),
);
