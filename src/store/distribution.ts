import type { Sql } from '../core/db.js';

/**
 * How engram's schema maps onto Citus (see docs/scale-out.md). Every table is distributed
 * by DISTRIBUTION_COLUMN except the reference tables below, which are copied to every node:
 * they are read before the tenant is known (api_keys, looked up by key id; tenants, which
 * api_keys references) or are shared by every tenant (engram_settings, schema_migrations).
 */
export const DISTRIBUTION_COLUMN = 'tenant_id';
export const REFERENCE_TABLES: readonly string[] = [
  'tenants',
  'api_keys',
  'engram_settings',
  'schema_migrations',
];

/** One way a table breaks distribution by tenant; empty list = the schema distributes. */
export interface DistributionViolation {
  table: string;
  rule: string;
  detail: string;
}

interface ColumnRow {
  table_name: string;
  has_tenant: boolean;
  [key: string]: unknown;
}
interface IndexRow {
  table_name: string;
  index_name: string;
  is_primary: boolean;
  first_column: string | null;
  [key: string]: unknown;
}
interface ForeignKeyRow {
  table_name: string;
  constraint_name: string;
  referenced_table: string;
  first_column: string | null;
  first_referenced: string | null;
  [key: string]: unknown;
}

/**
 * Checks every base table of the current schema against the rules that let Citus distribute
 * it by tenant: a distributed table has tenant_id, a primary key, and its primary key and
 * unique indexes lead with tenant_id; a foreign key between distributed tables joins on
 * tenant_id first; a reference table never references a distributed one.
 */
export async function distributionViolations(db: Sql): Promise<DistributionViolation[]> {
  const tables = await db.query<ColumnRow>(
    `SELECT c.relname AS table_name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $1
                    AND NOT a.attisdropped) AS has_tenant
     FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
       AND c.relkind IN ('r', 'p') AND NOT c.relispartition`,
    [DISTRIBUTION_COLUMN],
  );
  const indexes = await db.query<IndexRow>(
    `SELECT t.relname AS table_name, i.relname AS index_name, x.indisprimary AS is_primary,
            (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = x.indkey[0]) AS first_column
     FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
     WHERE t.relnamespace = current_schema()::regnamespace AND (x.indisunique OR x.indisprimary)`,
  );
  const foreignKeys = await db.query<ForeignKeyRow>(
    `SELECT t.relname AS table_name, k.conname AS constraint_name, r.relname AS referenced_table,
            (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = k.conrelid AND a.attnum = k.conkey[1]) AS first_column,
            (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = k.confrelid AND a.attnum = k.confkey[1]) AS first_referenced
     FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
     WHERE k.contype = 'f' AND t.relnamespace = current_schema()::regnamespace`,
  );

  const isReference = (table: string) => REFERENCE_TABLES.includes(table);
  const out: DistributionViolation[] = [];
  for (const t of tables) {
    if (isReference(t.table_name)) continue;
    if (!t.has_tenant)
      out.push({ table: t.table_name, rule: 'has-tenant', detail: `no ${DISTRIBUTION_COLUMN} column` });
    if (!indexes.some((i) => i.table_name === t.table_name && i.is_primary)) {
      out.push({ table: t.table_name, rule: 'primary-key', detail: 'no primary key' });
    }
  }
  for (const i of indexes) {
    if (isReference(i.table_name) || i.first_column === DISTRIBUTION_COLUMN) continue;
    out.push({
      table: i.table_name,
      rule: i.is_primary ? 'primary-key' : 'unique-index',
      detail: `${i.index_name} leads with ${i.first_column ?? 'an expression'}, not ${DISTRIBUTION_COLUMN}`,
    });
  }
  for (const k of foreignKeys) {
    const from = isReference(k.table_name);
    const to = isReference(k.referenced_table);
    if (from && !to) {
      out.push({
        table: k.table_name,
        rule: 'foreign-key',
        detail: `${k.constraint_name}: a reference table cannot reference the distributed ${k.referenced_table}`,
      });
    } else if (
      !from &&
      !to &&
      (k.first_column !== DISTRIBUTION_COLUMN || k.first_referenced !== DISTRIBUTION_COLUMN)
    ) {
      out.push({
        table: k.table_name,
        rule: 'foreign-key',
        detail: `${k.constraint_name} joins ${k.first_column} to ${k.referenced_table}.${k.first_referenced}, not on ${DISTRIBUTION_COLUMN} first`,
      });
    }
  }
  return out;
}
