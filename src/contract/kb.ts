import { z } from 'zod';

/**
 * Knowledge-base operations (/api/v2/knowledge_bases...): one schema per operation's
 * input and answer `data`. Field names, defaults and limits follow the published OpenAPI
 * (KbCreateInput, DocIngestBody, SearchBody, TopicTagReplaceBody, ...) and the spec's
 * rules for KB search and tag replace.
 */
const isoDate = z.string();
const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** Query strings repeat a key for arrays (`tag_ids=a&tag_ids=b`); a single value is a one-element array. */
const queryArray = <T extends z.ZodType>(item: T) =>
  z.union([z.array(item), item]).transform((v) => (Array.isArray(v) ? v : [v]) as z.output<T>[]);

export const TagId = z.string().min(1).max(128).describe('Opaque semantic tag id (1-128 characters).');
export const TAG_LIMIT = 50;
const page = z.coerce.number().int().min(1).default(1);
const pageSize = z.coerce.number().int().min(1).max(100).default(20);

// ---------------------------------------------------------------- path parameters

const Id = z.string().min(1).max(128);
export const KbParams = z.object({ kb_id: Id });
export const CategoryParams = z.object({ kb_id: Id, category_id: Id });
export const DocParams = z.object({ kb_id: Id, doc_id: Id });
export const TopicParams = z.object({ kb_id: Id, doc_id: Id, topic_id: Id });

// ---------------------------------------------------------------- knowledge bases

export const KbCreateInput = z
  .object({
    name: z.string().min(1).max(100),
    description: z.string().max(10_000).default(''),
    owner_id: nullable(z.string().min(1).max(256)),
  })
  .strict();
export type KbCreateInput = z.infer<typeof KbCreateInput>;
export const KbPatchInput = z
  .object({
    name: nullable(z.string().min(1).max(100)),
    description: nullable(z.string().max(10_000)),
  })
  .strict();
export type KbPatchInput = z.infer<typeof KbPatchInput>;
export const KbData = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  owner_id: z.string().nullable(),
  document_count: z.number().int(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type KbData = z.infer<typeof KbData>;
export const KbListQuery = z.object({ page, page_size: pageSize, owner_id: z.string().min(1).optional() });
export type KbListQuery = z.infer<typeof KbListQuery>;
export const KbListData = z.object({ knowledge_bases: z.array(KbData), total: z.number().int() });
export type KbListData = z.infer<typeof KbListData>;
export const DeleteData = z.object({ id: z.string(), deleted: z.boolean() });
export type DeleteData = z.infer<typeof DeleteData>;

// ---------------------------------------------------------------- categories

export const CategoryCreateInput = z
  .object({
    name: z.string().min(1).max(50),
    description: z.string().max(10_000).default(''),
  })
  .strict();
export type CategoryCreateInput = z.infer<typeof CategoryCreateInput>;
export const CategoryPatchInput = z
  .object({
    name: nullable(z.string().min(1).max(50)),
    description: nullable(z.string().max(10_000)),
  })
  .strict();
export type CategoryPatchInput = z.infer<typeof CategoryPatchInput>;
export const CategoryData = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  document_count: z.number().int(),
  scope: z.literal('kb'),
  editable: z.boolean(),
});
export type CategoryData = z.infer<typeof CategoryData>;
export const CategoryListData = z.object({ categories: z.array(CategoryData) });
export type CategoryListData = z.infer<typeof CategoryListData>;

// ---------------------------------------------------------------- documents

/** Content types a document can be ingested from (JSON `text`, or a file's bytes in `base64`). */
export const DOC_CONTENT_TYPES = ['text', 'audio', 'image', 'doc', 'pdf', 'html', 'email'] as const;
export const DocContent = z.object({
  type: z.enum(DOC_CONTENT_TYPES),
  text: nullable(z.string()),
  source: nullable(z.string()),
  base64: nullable(z.string()),
  uri: nullable(z.string()),
  ext: nullable(z.string().max(16)),
  name: nullable(z.string().max(512)),
  source_info: nullable(z.record(z.string(), z.unknown())),
  extras: nullable(z.record(z.string(), z.unknown())),
});
export type DocContent = z.infer<typeof DocContent>;
export const DocIngestInput = z
  .object({
    title: z.string().min(1).max(500),
    content: DocContent,
    category_id: z.string().max(128).default(''),
  })
  .strict();
export type DocIngestInput = z.infer<typeof DocIngestInput>;
export const DocIngestData = z.object({ id: z.string(), status: z.string(), task_id: z.string() });
export type DocIngestData = z.infer<typeof DocIngestData>;
export const TagRef = z.object({ id: z.string(), name: z.string().nullable() });
export const DocData = z.object({
  id: z.string(),
  kb_id: z.string(),
  category_id: z.string(),
  category_name: z.string().nullable(),
  title: z.string(),
  summary: z.string().nullable(),
  source_name: z.string().nullable(),
  source_type: z.string().nullable(),
  tags: z.array(TagRef),
  topic_count: z.number().int(),
  status: z.string(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type DocData = z.infer<typeof DocData>;
export const DocListQuery = z.object({
  category_id: z.string().min(1).optional(),
  page,
  page_size: pageSize,
});
export type DocListQuery = z.infer<typeof DocListQuery>;
export const DocListData = z.object({ documents: z.array(DocData), total: z.number().int() });
export type DocListData = z.infer<typeof DocListData>;
export const DocPatchInput = z
  .object({
    title: nullable(z.string().min(1).max(500)),
    category_id: nullable(z.string().max(128)),
  })
  .strict();
export type DocPatchInput = z.infer<typeof DocPatchInput>;
export const DocPatchData = z.object({
  id: z.string(),
  updated_fields: z.array(z.string()),
  updated_at: isoDate,
});
export type DocPatchData = z.infer<typeof DocPatchData>;
/** `deleted_topics` counts every node removed, the document root included. */
export const DocDeleteData = DeleteData.extend({ deleted_topics: z.number().int() });
export type DocDeleteData = z.infer<typeof DocDeleteData>;

// ---------------------------------------------------------------- topics

export const TopicType = z.enum(['root', 'section', 'element']);
const topicCore = {
  id: z.string(),
  doc_id: z.string(),
  kb_id: z.string(),
  type: TopicType,
  name: z.string(),
  depth: z.number().int(),
  seq: z.number().int(),
  parent_id: z.string().nullable(),
  summary: z.string(),
  tag_ids: z.array(z.string()),
  version: z.number().int(),
};
export const TopicDetailData = z.object({
  ...topicCore,
  category_id: z.string(),
  category_name: z.string().nullable(),
  content: z.string().nullable(),
  labels: z.array(z.string()),
  children_ids: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  created_at: isoDate,
  updated_at: isoDate,
});
export type TopicDetailData = z.infer<typeof TopicDetailData>;
export const TopicListItem = z.object({
  ...topicCore,
  /** Null unless `include=content`, and always on the document root. */
  content: z.string().nullable(),
  created_at: isoDate,
  updated_at: isoDate,
});
export type TopicListItem = z.infer<typeof TopicListItem>;
export const Include = z.enum(['content']);
export const TopicListQuery = z.object({ include: queryArray(Include).default([]) });
export type TopicListQuery = z.infer<typeof TopicListQuery>;
export const TopicListData = z.object({ topics: z.array(TopicListItem) });
export type TopicListData = z.infer<typeof TopicListData>;
export const TopicFilterQuery = z.object({
  tag_ids: queryArray(TagId).pipe(z.array(TagId).min(1).max(100)),
  page,
  page_size: pageSize,
});
export type TopicFilterQuery = z.infer<typeof TopicFilterQuery>;
export const TopicFilterItem = z.object(topicCore);
export type TopicFilterItem = z.infer<typeof TopicFilterItem>;
export const TopicFilterListData = z.object({ topics: z.array(TopicFilterItem), total: z.number().int() });
export type TopicFilterListData = z.infer<typeof TopicFilterListData>;

// ---------------------------------------------------------------- tags

export const TagReplaceInput = z
  .object({
    tag_ids: z.array(TagId).max(100),
    version: z.number().int().min(0),
  })
  .strict();
export type TagReplaceInput = z.infer<typeof TagReplaceInput>;
export const TagReplaceData = z.object({
  topic_id: z.string(),
  requested: z.number().int(),
  tag_ids: z.array(z.string()),
  version: z.number().int(),
  truncated: z.boolean(),
  limit: z.literal(TAG_LIMIT),
  dropped_count: z.number().int(),
});
export type TagReplaceData = z.infer<typeof TagReplaceData>;
export const TagUsageInput = z.object({ tag_ids: z.array(TagId).min(1).max(10_000) });
export type TagUsageInput = z.infer<typeof TagUsageInput>;
export const TagUsageData = z
  .object({
    items: z.array(z.object({ id: z.string(), document_count: z.number().int() })),
    total: z.number().int(),
  })
  .strict();
export type TagUsageData = z.infer<typeof TagUsageData>;

// ---------------------------------------------------------------- search

export const KB_QUERY_MAX = 2000;
export const KB_RERANK_POOL = 50;
export const KbSearchInput = z
  .object({
    query: nullable(z.string().max(KB_QUERY_MAX)),
    method: z.enum(['keyword', 'vector', 'hybrid']).default('hybrid'),
    page: z.number().int().min(1).default(1),
    top_k: z.number().int().min(1).max(100).default(10),
    score_threshold: nullable(z.number()),
    include: z.array(Include).default([]),
    boost_tag_ids: z.array(TagId).max(100).default([]),
    filters: z
      .object({
        category_id: nullable(z.string().max(128)),
        tag_ids: z.array(TagId).max(100).default([]),
      })
      .strict()
      .default({ tag_ids: [] }),
  })
  .strict();
export type KbSearchInput = z.infer<typeof KbSearchInput>;
export const KbSearchHit = z.object({
  object: z.literal('topic'),
  id: z.string(),
  doc_id: z.string(),
  kb_id: z.string(),
  category_id: z.string(),
  category_name: z.string().nullable(),
  name: z.string(),
  depth: z.number().int(),
  summary: z.string().nullable(),
  content: z.string().nullable().optional(),
  score: z.number(),
  retrieval_method: z.enum(['keyword', 'vector', 'hybrid', 'filter']),
  source: z.string().nullable(),
  document: z.object({ doc_id: z.string(), title: z.string(), summary: z.string().nullable() }),
  tags: z.array(TagRef),
  updated_at: isoDate,
});
export type KbSearchHit = z.infer<typeof KbSearchHit>;
export const KbSearchData = z.object({
  hits: z.array(KbSearchHit),
  total: z.number().int(),
  took_ms: z.number(),
});
export type KbSearchData = z.infer<typeof KbSearchData>;
