import type {
  CategoryCreateInput,
  CategoryData,
  CategoryListData,
  CategoryPatchInput,
  DeleteData,
  KbCreateInput,
  KbData,
  KbListData,
  KbListQuery,
  KbPatchInput,
} from '../../contract/kb.js';
import type { Sql } from '../../core/db.js';
import { notFound } from '../../core/errors.js';
import { oneOr, pageOf } from './queries.js';
import {
  CATEGORY_COLUMNS,
  type CategoryRow,
  categoryData,
  KB_COLUMNS,
  type KbRow,
  kbData,
  newCategoryId,
  newKbId,
} from './rows.js';

/** Knowledge bases and their categories, for one tenant. */
export interface Ctx {
  tenantId: string;
}

export async function requireKb(q: Sql, ctx: Ctx, kbId: string): Promise<void> {
  const rows = await q.query('SELECT 1 FROM knowledge_bases WHERE tenant_id = $1 AND id = $2', [
    ctx.tenantId,
    kbId,
  ]);
  if (!rows.length) throw notFound(`knowledge base ${kbId} not found`);
}

export async function createKb(q: Sql, ctx: Ctx, input: KbCreateInput): Promise<KbData> {
  const id = newKbId();
  await q.query(
    'INSERT INTO knowledge_bases (tenant_id, id, name, description, owner_id) VALUES ($1, $2, $3, $4, $5)',
    [ctx.tenantId, id, input.name, input.description, input.owner_id ?? null],
  );
  return getKb(q, ctx, id);
}

export async function getKb(q: Sql, ctx: Ctx, kbId: string): Promise<KbData> {
  const row = await oneOr<KbRow>(
    q,
    `SELECT ${KB_COLUMNS} FROM knowledge_bases k WHERE k.tenant_id = $1 AND k.id = $2`,
    [ctx.tenantId, kbId],
    () => notFound(`knowledge base ${kbId} not found`),
  );
  return kbData(row);
}

export async function listKbs(q: Sql, ctx: Ctx, query: KbListQuery): Promise<KbListData> {
  const params = [ctx.tenantId, query.owner_id ?? null];
  const where = 'k.tenant_id = $1 AND ($2::text IS NULL OR k.owner_id = $2)';
  const { rows, total } = await pageOf<KbRow>(q, {
    select: KB_COLUMNS,
    from: 'knowledge_bases k',
    where,
    orderBy: 'k.created_at DESC, k.id',
    params,
    page: query.page,
    pageSize: query.page_size,
  });
  return { knowledge_bases: rows.map(kbData), total };
}

export async function patchKb(q: Sql, ctx: Ctx, kbId: string, input: KbPatchInput): Promise<KbData> {
  const rows = await q.query(
    `UPDATE knowledge_bases SET name = coalesce($3, name), description = coalesce($4, description), updated_at = now()
     WHERE tenant_id = $1 AND id = $2 RETURNING id`,
    [ctx.tenantId, kbId, input.name ?? null, input.description ?? null],
  );
  if (!rows.length) throw notFound(`knowledge base ${kbId} not found`);
  return getKb(q, ctx, kbId);
}

/** Deletes the knowledge base with its categories, documents and topics. */
export async function deleteKb(q: Sql, ctx: Ctx, kbId: string): Promise<DeleteData> {
  const rows = await q.query('DELETE FROM knowledge_bases WHERE tenant_id = $1 AND id = $2 RETURNING id', [
    ctx.tenantId,
    kbId,
  ]);
  if (!rows.length) throw notFound(`knowledge base ${kbId} not found`);
  return { id: kbId, deleted: true };
}

// ---------------------------------------------------------------- categories

/** The category of a knowledge base, or 404. */
export async function requireCategory(q: Sql, ctx: Ctx, kbId: string, categoryId: string): Promise<void> {
  const rows = await q.query('SELECT 1 FROM kb_categories WHERE tenant_id = $1 AND kb_id = $2 AND id = $3', [
    ctx.tenantId,
    kbId,
    categoryId,
  ]);
  if (!rows.length) throw notFound(`category ${categoryId} not found in knowledge base ${kbId}`);
}

async function getCategory(q: Sql, ctx: Ctx, kbId: string, categoryId: string): Promise<CategoryData> {
  const row = await oneOr<CategoryRow>(
    q,
    `SELECT ${CATEGORY_COLUMNS} FROM kb_categories c WHERE c.tenant_id = $1 AND c.kb_id = $2 AND c.id = $3`,
    [ctx.tenantId, kbId, categoryId],
    () => notFound(`category ${categoryId} not found in knowledge base ${kbId}`),
  );
  return categoryData(row);
}

export async function createCategory(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  input: CategoryCreateInput,
): Promise<CategoryData> {
  await requireKb(q, ctx, kbId);
  const id = newCategoryId();
  await q.query(
    'INSERT INTO kb_categories (tenant_id, id, kb_id, name, description) VALUES ($1, $2, $3, $4, $5)',
    [ctx.tenantId, id, kbId, input.name, input.description],
  );
  return getCategory(q, ctx, kbId, id);
}

export async function listCategories(q: Sql, ctx: Ctx, kbId: string): Promise<CategoryListData> {
  await requireKb(q, ctx, kbId);
  const rows = await q.query<CategoryRow>(
    `SELECT ${CATEGORY_COLUMNS} FROM kb_categories c WHERE c.tenant_id = $1 AND c.kb_id = $2 ORDER BY c.created_at, c.id`,
    [ctx.tenantId, kbId],
  );
  return { categories: rows.map(categoryData) };
}

export async function patchCategory(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  categoryId: string,
  input: CategoryPatchInput,
): Promise<CategoryData> {
  const rows = await q.query(
    `UPDATE kb_categories SET name = coalesce($4, name), description = coalesce($5, description), updated_at = now()
     WHERE tenant_id = $1 AND kb_id = $2 AND id = $3 RETURNING id`,
    [ctx.tenantId, kbId, categoryId, input.name ?? null, input.description ?? null],
  );
  if (!rows.length) throw notFound(`category ${categoryId} not found in knowledge base ${kbId}`);
  return getCategory(q, ctx, kbId, categoryId);
}

/** Deletes a category; its documents stay, uncategorised. */
export async function deleteCategory(
  q: Sql,
  ctx: Ctx,
  kbId: string,
  categoryId: string,
): Promise<DeleteData> {
  const rows = await q.query(
    'DELETE FROM kb_categories WHERE tenant_id = $1 AND kb_id = $2 AND id = $3 RETURNING id',
    [ctx.tenantId, kbId, categoryId],
  );
  if (!rows.length) throw notFound(`category ${categoryId} not found in knowledge base ${kbId}`);
  return { id: categoryId, deleted: true };
}
