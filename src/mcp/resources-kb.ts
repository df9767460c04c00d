import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { KbChange } from '../engine/events.js';
import type { ToolEnv } from './tools/tool.js';
import { formatKbUri, type KbRef } from './uris-kb.js';

/**
 * Knowledge-base topics as MCP resources: a document's topic tree and one topic, listed
 * (one tree per document) after the memory resources, and subscribable: a committed change
 * (a tree rebuilt or removed, a topic's tags replaced, a knowledge base deleted) notifies
 * every subscribed URI it touches.
 */
const JSON_TYPE = 'application/json';

export const KB_TEMPLATES: ResourceTemplate[] = [
  {
    name: 'kb-document-topics',
    title: "A knowledge-base document's topics",
    uriTemplate: 'engram://kb/{kb_id}/documents/{doc_id}/topics',
    description: "A document's topic tree, root first, depth-first (names, summaries, tags; no bodies).",
    mimeType: JSON_TYPE,
  },
  {
    name: 'kb-topic',
    title: 'One knowledge-base topic',
    uriTemplate: 'engram://kb/{kb_id}/documents/{doc_id}/topics/{topic_id}',
    description: 'One topic in full: content, summary, place in the tree, tags and tag version.',
    mimeType: JSON_TYPE,
  },
];

/** A page of topic-tree resources, one per document; `more` when another page follows. */
export async function listKbResources(
  env: ToolEnv,
  offset: number,
  limit: number,
): Promise<{ items: Resource[]; more: boolean }> {
  const rows = await env.engram.kb.documentsPage(env.ctx, offset, limit + 1);
  const items = rows.slice(0, limit).map((r) => ({
    uri: formatKbUri({ type: 'tree', kbId: r.kb_id, docId: r.id }),
    name: `${r.title} (topics)`,
    mimeType: JSON_TYPE,
  }));
  return { items, more: rows.length > limit };
}

export async function readKbResource(
  env: ToolEnv,
  uri: string,
  ref: KbRef,
): Promise<Record<string, unknown>> {
  const { kb } = env.engram;
  if (ref.type === 'topic')
    return { uri, topic: await kb.getTopic(env.ctx, ref.kbId, ref.docId, ref.topicId) };
  const { topics } = await kb.listDocTopics(env.ctx, ref.kbId, ref.docId, false);
  return {
    uri,
    kb_id: ref.kbId,
    doc_id: ref.docId,
    items: topics.map((t) => ({
      ...t,
      uri: formatKbUri({ type: 'topic', kbId: ref.kbId, docId: ref.docId, topicId: t.id }),
    })),
  };
}

/**
 * The (canonical) URIs whose contents a committed change alters: `exact` ones, and every
 * URI starting with `prefix` (a document's tree and all its topics, or a whole knowledge base).
 */
export function kbChangeScope(change: KbChange): { exact: string[]; prefix: string | null } {
  if (change.docId === undefined)
    return { exact: [], prefix: `engram://kb/${encodeURIComponent(change.kbId)}/` };
  const tree = formatKbUri({ type: 'tree', kbId: change.kbId, docId: change.docId });
  if (change.topicId === undefined) return { exact: [tree], prefix: `${tree}/` };
  return {
    exact: [
      tree,
      formatKbUri({ type: 'topic', kbId: change.kbId, docId: change.docId, topicId: change.topicId }),
    ],
    prefix: null,
  };
}

/** Whether a committed change alters the contents of a (canonical) subscribed URI. */
export function kbUriAffected(uri: string, change: KbChange): boolean {
  const { exact, prefix } = kbChangeScope(change);
  return exact.includes(uri) || (prefix !== null && uri.startsWith(prefix));
}
