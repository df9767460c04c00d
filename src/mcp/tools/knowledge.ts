import {
  DocIngestData,
  DocIngestInput,
  KbParams,
  KbSearchData,
  KbSearchInput,
  TagReplaceData,
  TagReplaceInput,
  TopicDetailData,
  TopicParams,
} from '../../contract/kb.js';
import { renderKbSearch, renderTopic } from '../render-kb.js';
import { formatKbUri } from '../uris-kb.js';
import { defineTool } from './tool.js';

/**
 * Knowledge bases over MCP: topic search, one topic, document ingest and tag replace,
 * each over the REST operation's schemas with the path parameters as arguments.
 */

export const searchKnowledge = defineTool({
  name: 'search_knowledge',
  title: 'Search knowledge',
  description:
    'Search the topics of a knowledge base (documents split into sections) for a query. Give ' +
    'kb_id and query; optionally method (keyword, vector, hybrid (default)), top_k (1-100), ' +
    'score_threshold (scores are normalised within the answer: best 1.0), include: ["content"] ' +
    'for topic bodies, boost_tag_ids (reweight), filters.category_id / filters.tag_ids (narrow). ' +
    'Without a query, filters.tag_ids pages (page, top_k) through tagged topics. Read a whole ' +
    'topic with get_topic or its engram://kb/... resource.',
  input: KbParams.extend(KbSearchInput.shape).strict(),
  output: KbSearchData,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, { kb_id, ...input }) => {
    const data = await engram.kb.search(ctx, kb_id, input);
    return { data, text: renderKbSearch(data) };
  },
});

export const getTopic = defineTool({
  name: 'get_topic',
  title: 'Get topic',
  description:
    'Read one topic of a knowledge-base document in full: its content, summary, place in the ' +
    "document's tree (parent_id, children_ids), tags and tag version. Ids come from search_knowledge.",
  input: TopicParams.strict(),
  output: TopicDetailData,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, p) => {
    const data = await engram.kb.getTopic(ctx, p.kb_id, p.doc_id, p.topic_id);
    return { data, text: renderTopic(data) };
  },
});

export const addDocument = defineTool({
  name: 'add_document',
  title: 'Add document',
  description:
    'Add a document to a knowledge base: give kb_id, title and content {type: "text", text} ' +
    '(Markdown or plain text) or {type: "html", text}, optionally category_id. It is split into ' +
    'topics in the background: the answer has the document id and a task_id to follow with get_task.',
  input: KbParams.extend(DocIngestInput.shape).strict(),
  output: DocIngestData,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  run: async ({ engram, ctx }, { kb_id, ...input }) => {
    const data = await engram.kb.ingestDocument(ctx, kb_id, input);
    return {
      data,
      text:
        `Document ${data.id} is queued for splitting into topics (task ${data.task_id}); get_task shows ` +
        `its progress. Its topics will be at ${formatKbUri({ type: 'tree', kbId: kb_id, docId: data.id })}.`,
    };
  },
});

export const replaceTopicTags = defineTool({
  name: 'replace_topic_tags',
  title: 'Replace topic tags',
  description:
    "Replace a topic's whole tag set (opaque ids, at most 50 kept, 100 accepted). version must be the " +
    "topic's current tag version (from get_topic): a stale version is refused with a Conflict error " +
    'and nothing changes; read the topic again and retry. Sending the set it already has changes nothing.',
  input: TopicParams.extend(TagReplaceInput.shape).strict(),
  output: TagReplaceData,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async ({ engram, ctx }, { kb_id, doc_id, topic_id, ...input }) => {
    const data = await engram.kb.replaceTags(ctx, kb_id, doc_id, topic_id, input);
    const dropped = data.truncated
      ? ` (${data.dropped_count} beyond the limit of ${data.limit} dropped)`
      : '';
    return {
      data,
      text: `Topic ${topic_id} now carries ${data.tag_ids.length} tags${dropped}; tag version ${data.version}.`,
    };
  },
});
