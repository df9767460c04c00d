/** A statement and its positional parameters ($1, $2, ...). */
export interface Statement {
  sql: string;
  params: unknown[];
}

/**
 * Statements sent as one, in one round trip: each of `clauses` becomes a data-modifying WITH
 * clause of `last` (default `SELECT 1`), its parameters renumbered after those of the parts
 * before it. Every part runs once, all on one snapshot (none sees another's rows), and the
 * statement-level triggers of each fire at the end of the whole. A part's text must not
 * hold `$n` other than its parameters.
 */
export function withClauses(
  clauses: readonly Statement[],
  last: Statement = { sql: 'SELECT 1', params: [] },
): Statement {
  const params: unknown[] = [];
  const shifted = (s: Statement) => {
    const n = params.length;
    params.push(...s.params);
    return s.sql.replace(/\$(\d+)/g, (_, d: string) => `$${Number(d) + n}`);
  };
  const parts = clauses.map((c, i) => `w${i} AS (${shifted(c)})`);
  const tail = shifted(last);
  return { sql: parts.length ? `WITH ${parts.join(',\n')}\n${tail}` : tail, params };
}
