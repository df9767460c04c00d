import type { Sql } from '../../core/db.js';
import type { EngramError } from '../../core/errors.js';

/** Query shapes the knowledge-base engine repeats: one row or an error, and a page with its total. */

/** The first row of a query, or `missing` thrown when there is none. */
export async function oneOr<R extends Record<string, unknown>>(
  q: Sql,
  sql: string,
  params: unknown[],
  missing: () => EngramError,
): Promise<R> {
  const rows = await q.query<R>(sql, params);
  if (!rows[0]) throw missing();
  return rows[0];
}

/** One page of `SELECT select FROM from WHERE where ORDER BY orderBy`, and the count of all matches. */
export interface PageQuery {
  select: string;
  from: string;
  where: string;
  orderBy: string;
  params: unknown[];
  page: number;
  pageSize: number;
}

export async function pageOf<R extends Record<string, unknown>>(
  q: Sql,
  p: PageQuery,
): Promise<{ rows: R[]; total: number }> {
  const [rows, count] = await Promise.all([
    q.query<R>(
      `SELECT ${p.select} FROM ${p.from} WHERE ${p.where} ORDER BY ${p.orderBy}
       LIMIT ${p.pageSize} OFFSET ${(p.page - 1) * p.pageSize}`,
      p.params,
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${p.from} WHERE ${p.where}`, p.params),
  ]);
  return { rows, total: Number(count[0]?.n ?? 0) };
}
