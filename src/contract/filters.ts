import { z } from 'zod';
import { Instant } from './time.js';

/**
 * The filter DSL of get and search: a node holds field conditions and nested `AND` / `OR`
 * arrays, all of which must hold. A condition is a scalar (equality) or an operator
 * object: `{"timestamp": {"gte": 1714000000000, "lt": "2024-05-01T00:00:00Z"}}`,
 * `{"sender_id": {"in": ["u1", "u2"]}}`, `{"OR": [{"session_id": "a"}, {"session_id": "b"}]}`.
 * Fields: session_id, sender_id, timestamp (Unix ms or ISO 8601), tags (eq, ne, in: the
 * memory carries the tag, does not, carries one of them).
 */
const Scalar = z.union([z.string().min(1).max(256), z.number()]);
const operators = <V extends z.ZodType>(value: V) =>
  z
    .object({
      eq: value,
      ne: value,
      gt: value,
      gte: value,
      lt: value,
      lte: value,
      in: z.array(value).min(1).max(100),
    })
    .partial()
    .strict()
    .refine(
      (o) => Object.keys(o).length > 0,
      'an operator object needs at least one of eq, ne, gt, gte, lt, lte, in',
    );
export const Condition = z.union([Scalar, operators(Scalar)]);
export type Condition = z.infer<typeof Condition>;
/** A condition on `timestamp`: every value a range-checked instant. */
export const TimeCondition = z.union([Instant, operators(Instant)]);

export const FILTER_FIELDS = ['session_id', 'sender_id', 'timestamp', 'tags'] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];

export interface FilterNode {
  AND?: FilterNode[] | null | undefined;
  OR?: FilterNode[] | null | undefined;
  session_id?: Condition | undefined;
  sender_id?: Condition | undefined;
  timestamp?: Condition | undefined;
  tags?: Condition | undefined;
}

export const FilterNode: z.ZodType<FilterNode> = z.lazy(() =>
  z
    .object({
      AND: z.array(FilterNode).max(50).nullish(),
      OR: z.array(FilterNode).max(50).nullish(),
      session_id: Condition.optional(),
      sender_id: Condition.optional(),
      timestamp: TimeCondition.optional().describe(
        'Time condition in Unix ms or ISO 8601, e.g. {"gte": 1767225600000, "lt": "2026-02-01T00:00:00Z"}.',
      ),
      tags: Condition.optional().describe(
        'Tag condition (eq, ne, in), e.g. "travel" or {"in": ["travel", "work"]}; only episodes carry tags.',
      ),
    })
    .strict(),
);

/**
 * The most values (each scalar condition, operator value and `in` element) and the most
 * nodes a whole filter tree may hold. The per-list bounds above alone let a tree of about a
 * megabyte hold ~70,000 values, beyond the 65,535 bind parameters of one PostgreSQL
 * statement (every value is one), compiled into a statement of that size; 1,000 of each is
 * far above what a client writes by hand.
 */
export const MAX_FILTER_VALUES = 1000;
export const MAX_FILTER_NODES = 1000;

function filterSize(node: FilterNode, size = { values: 0, nodes: 0 }): { values: number; nodes: number } {
  size.nodes++;
  for (const field of FILTER_FIELDS) {
    const c = node[field];
    if (c === undefined) continue;
    if (c === null || typeof c !== 'object') size.values++;
    else for (const v of Object.values(c)) size.values += Array.isArray(v) ? v.length : 1;
  }
  for (const child of [...(node.AND ?? []), ...(node.OR ?? [])]) filterSize(child, size);
  return size;
}

/** A whole filter tree (the `filters` of get and search): a FilterNode within the total bounds. */
export const Filters: z.ZodType<FilterNode> = FilterNode.superRefine((node, ctx) => {
  const { values, nodes } = filterSize(node);
  if (values > MAX_FILTER_VALUES || nodes > MAX_FILTER_NODES)
    ctx.addIssue({
      code: 'custom',
      message: `a filter tree holds at most ${MAX_FILTER_VALUES} values and ${MAX_FILTER_NODES} nodes in all (this one: ${values} values, ${nodes} nodes)`,
    });
});

/**
 * The single session a filter pins with a top-level equality, if any. A number pins the
 * session of that name, as it selects it (compileFilter compares it as text).
 */
export function pinnedSession(node: FilterNode | null | undefined): string | undefined {
  const c = node?.session_id;
  const eq = c !== null && typeof c === 'object' ? (Object.keys(c).length === 1 ? c.eq : undefined) : c;
  return typeof eq === 'string' || typeof eq === 'number' ? String(eq) : undefined;
}
