import type {
  CategoryData,
  DocData,
  KbData,
  TopicDetailData,
  TopicFilterItem,
  TopicListItem,
} from '../../contract/kb.js';
import { newId } from '../../core/ids.js';
import { isoRequired } from '../../core/time.js';

/**
 * Rows of the knowledge tables and their API shapes. Ids: `kb_`, `c_`, `d_` (the v1
 * knowledge wiki's `^d_[a-f0-9]{12,32}$`) and `t_`, each followed by 24 hex digits.
 */
export const newKbId = () => `kb_${newId()}`;
export const newCategoryId = () => `c_${newId()}`;
export const newDocId = () => `d_${newId()}`;
export const newTopicId = () => `t_${newId()}`;

/** Tags are opaque ids; the name a tag reference carries is its id. */
export const tagRefs = (ids: readonly string[]) => ids.map((id) => ({ id, name: id }));

export interface KbRow {
  [k: string]: unknown;
  id: string;
  name: string;
  description: string;
  owner_id: string | null;
  document_count: number;
  created_at: Date | string;
  updated_at: Date | string;
}
export const KB_COLUMNS = `k.id, k.name, k.description, k.owner_id, k.created_at, k.updated_at,
  (SELECT count(*)::int FROM kb_documents d WHERE d.tenant_id = k.tenant_id AND d.kb_id = k.id) AS document_count`;
export const kbData = (r: KbRow): KbData => ({
  id: r.id,
  name: r.name,
  description: r.description,
  owner_id: r.owner_id,
  document_count: Number(r.document_count),
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});

export interface CategoryRow {
  [k: string]: unknown;
  id: string;
  name: string;
  description: string;
  document_count: number;
}
export const CATEGORY_COLUMNS = `c.id, c.name, c.description,
  (SELECT count(*)::int FROM kb_documents d WHERE d.tenant_id = c.tenant_id AND d.category_id = c.id) AS document_count`;
export const categoryData = (r: CategoryRow): CategoryData => ({
  id: r.id,
  name: r.name,
  description: r.description,
  document_count: Number(r.document_count),
  scope: 'kb',
  editable: true,
});

export interface DocRow {
  [k: string]: unknown;
  id: string;
  kb_id: string;
  category_id: string | null;
  category_name: string | null;
  title: string;
  summary: string | null;
  source_name: string | null;
  source_type: string | null;
  status: string;
  topic_count: number;
  tag_ids: string[] | null;
  created_at: Date | string;
  updated_at: Date | string;
}
/** Over `kb_documents d`: the document, its category's name and the union of its topics' tags. */
export const DOC_COLUMNS = `d.id, d.kb_id, d.category_id, d.title, d.summary, d.source_name, d.source_type,
  d.status, d.topic_count, d.created_at, d.updated_at,
  (SELECT c.name FROM kb_categories c WHERE c.tenant_id = d.tenant_id AND c.id = d.category_id) AS category_name,
  (SELECT array_agg(DISTINCT x ORDER BY x) FROM kb_topics t, unnest(t.tag_ids) AS x
    WHERE t.tenant_id = d.tenant_id AND t.doc_id = d.id) AS tag_ids`;
export const docData = (r: DocRow): DocData => ({
  id: r.id,
  kb_id: r.kb_id,
  category_id: r.category_id ?? '',
  category_name: r.category_name,
  title: r.title,
  summary: r.summary,
  source_name: r.source_name,
  source_type: r.source_type,
  tags: tagRefs(r.tag_ids ?? []),
  topic_count: Number(r.topic_count),
  status: r.status,
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});

export interface TopicRow {
  [k: string]: unknown;
  id: string;
  kb_id: string;
  doc_id: string;
  type: 'root' | 'section' | 'element';
  name: string;
  summary: string;
  content: string;
  depth: number;
  seq: number;
  parent_id: string | null;
  children_ids: string[];
  labels: string[];
  metadata: Record<string, unknown>;
  tag_ids: string[];
  tag_version: number;
  created_at: Date | string;
  updated_at: Date | string;
}
export const TOPIC_COLUMNS = `t.id, t.kb_id, t.doc_id, t.type, t.name, t.summary, t.content, t.depth, t.seq,
  t.parent_id, t.children_ids, t.labels, t.metadata, t.tag_ids, t.tag_version, t.created_at, t.updated_at`;

export const topicFilterItem = (r: TopicRow): TopicFilterItem => ({
  id: r.id,
  doc_id: r.doc_id,
  kb_id: r.kb_id,
  type: r.type,
  name: r.name,
  depth: r.depth,
  seq: r.seq,
  parent_id: r.parent_id,
  summary: r.summary,
  tag_ids: r.tag_ids,
  version: r.tag_version,
});
/** A topic's body: null on the document root, which has none. */
const body = (r: TopicRow) => (r.type === 'root' ? null : r.content);
export const topicListItem = (r: TopicRow, withContent: boolean): TopicListItem => ({
  ...topicFilterItem(r),
  content: withContent ? body(r) : null,
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});
export const topicDetail = (
  r: TopicRow & { category_id: string | null; category_name: string | null },
): TopicDetailData => ({
  ...topicFilterItem(r),
  category_id: r.category_id ?? '',
  category_name: r.category_name,
  content: body(r),
  labels: r.labels,
  children_ids: r.children_ids,
  metadata: r.metadata,
  created_at: isoRequired(r.created_at),
  updated_at: isoRequired(r.updated_at),
});
