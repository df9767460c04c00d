import { type Condition, FILTER_FIELDS, type FilterField, type FilterNode } from '../contract/filters.js';
import { instantMs } from '../contract/time.js';
import { EngramError } from '../core/errors.js';

/**
 * Compiles the filter DSL into a SQL condition over one table. `columns` says how each
 * field maps onto that table (sender_id may be an array column such as sender_ids);
 * values are appended to `params` and referenced as $n, never interpolated.
 */
export interface FilterColumns {
  session_id: string;
  timestamp: string;
  /** Scalar column, or `{ array: 'col' }` when the table holds a text[] of senders. */
  sender_id: string | { array: string };
  /** The text[] of tags; absent on tables whose rows carry none (no row has a tag). */
  tags?: { array: string };
}

export function compileFilter(
  node: FilterNode | null | undefined,
  columns: FilterColumns,
  params: unknown[],
  path = 'filters',
): string {
  if (!node) return 'TRUE';
  const parts: string[] = [];
  for (const field of FILTER_FIELDS) {
    const cond = node[field];
    if (cond !== undefined) parts.push(compileCondition(field, cond, columns, params, `${path}.${field}`));
  }
  if (node.AND?.length)
    parts.push(
      `(${node.AND.map((n, i) => compileFilter(n, columns, params, `${path}.AND[${i}]`)).join(' AND ')})`,
    );
  if (node.OR?.length)
    parts.push(
      `(${node.OR.map((n, i) => compileFilter(n, columns, params, `${path}.OR[${i}]`)).join(' OR ')})`,
    );
  return parts.length ? parts.join(' AND ') : 'TRUE';
}

const SQL_OP = { eq: '=', ne: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function compileCondition(
  field: FilterField,
  cond: Condition,
  columns: FilterColumns,
  params: unknown[],
  path: string,
): string {
  const ops: [keyof typeof SQL_OP | 'in', unknown][] =
    typeof cond === 'object'
      ? (Object.entries(cond) as [keyof typeof SQL_OP | 'in', unknown][])
      : [['eq', cond]];
  const value = (v: unknown, p: string) => {
    params.push(field === 'timestamp' ? toMillis(v, p) : String(v));
    return `$${params.length}`;
  };
  const out = ops.map(([op, v]) => {
    const col = columns[field] ?? { array: "'{}'::text[]" };
    if (op === 'in') {
      const list = (v as unknown[]).map((x, i) => value(x, `${path}.in[${i}]`)).join(', ');
      if (typeof col === 'object') return `${col.array} && ARRAY[${list}]::text[]`;
      return `${col} IN (${list})`;
    }
    if (typeof col === 'object') {
      if (op === 'eq') return `${col.array} @> ARRAY[${value(v, `${path}.${op}`)}]::text[]`;
      if (op === 'ne') return `NOT (${col.array} @> ARRAY[${value(v, `${path}.${op}`)}]::text[])`;
      throw new EngramError('InvalidParameter', `${path}: ${field} supports eq, ne and in`, { param: path });
    }
    return `${col} ${SQL_OP[op]} ${value(v, `${path}.${op}`)}`;
  });
  return out.length === 1 ? out[0]! : `(${out.join(' AND ')})`;
}

/** Timestamps compare as Unix ms; ISO 8601 strings are accepted too (range-checked). */
function toMillis(v: unknown, param: string): number {
  const ms = instantMs(v);
  if (ms !== undefined) return ms;
  throw new EngramError(
    'InvalidParameter',
    `${param}: timestamp must be Unix milliseconds or an ISO 8601 date-time between years 1 and 9999`,
    { param },
  );
}
