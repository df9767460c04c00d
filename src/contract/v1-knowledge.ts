import { z } from 'zod';
import { scope } from './common.js';

/**
 * The self-hosted v1 knowledge wiki: read and replace one document of a knowledge base
 * by its id (spec "Legacy v1 (self-hosted knowledge wiki)"). Answers `request_id` + `data`.
 */
export const WikiDocParams = z.object({
  doc_id: z
    .string()
    .regex(/^d_[a-f0-9]{12,32}$/, 'must be d_ followed by 12-32 lowercase hexadecimal characters'),
});

export const WikiTopic = z.object({
  topic_id: z.string(),
  topic_name: z.string(),
  topic_path: z.string().describe('The headings from the document down to the topic, joined by " / ".'),
  depth: z.number().int(),
  summary: z.string(),
});

/** GET /api/v1/knowledge/documents/{doc_id}: the spec's "Knowledge document (v1)". */
export const WikiDocument = z.object({
  doc_id: z.string(),
  category_id: z.string(),
  title: z.string(),
  summary: z.string(),
  source_name: z.string(),
  source_type: z.string(),
  original_file_path: z
    .string()
    .describe('Object store key of the file the document was made from ("" when it came as text).'),
  topics: z.array(WikiTopic),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WikiDocument = z.infer<typeof WikiDocument>;

/**
 * PUT /api/v1/knowledge/documents/{doc_id}: multipart/form-data with `file` (required),
 * `title` and `category_id` (default: the document's current ones; an empty category_id
 * removes the category), `source_type` (default: the file's kind), `app_id` /
 * `project_id` (validated; knowledge bases belong to the tenant, not to a partition). The
 * same fields as JSON carry the file as `{name, base64}`.
 */
export const WikiReplaceInput = z
  .object({
    file: z
      .object({
        name: z
          .string()
          .min(1)
          .max(255)
          .refine((n) => !/[/\\]/.test(n), 'must be a file name, without / or \\'),
        base64: z.string().min(1),
      })
      .strict(),
    title: z.string().min(1).max(500).optional(),
    source_type: z.string().min(1).max(64).optional(),
    category_id: z.string().max(128).optional(),
    ...scope,
  })
  .strict();
export type WikiReplaceInput = z.infer<typeof WikiReplaceInput>;

export const WikiReplaceData = z.object({
  doc_id: z.string(),
  category_id: z.string(),
  topic_count: z.number().int(),
  source_name: z.string(),
  md_path: z.string().describe('Object store key of the document as Markdown.'),
  original_file_path: z.string().describe('Object store key of the uploaded file.'),
});
export type WikiReplaceData = z.infer<typeof WikiReplaceData>;
