import type { KbSearchData, TopicDetailData } from '../contract/kb.js';
import { formatKbUri } from './uris-kb.js';

/** What knowledge-base tools tell a model: hits with their document, and one topic in full. */
const clip = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
};

export function renderKbSearch(data: KbSearchData): string {
  if (!data.hits.length) return 'No topic matched.';
  const lines = data.hits.map((h, i) => {
    const uri = formatKbUri({ type: 'topic', kbId: h.kb_id, docId: h.doc_id, topicId: h.id });
    const tags = h.tags.length ? ` [tags: ${h.tags.map((t) => t.id).join(', ')}]` : '';
    const body = h.content
      ? `\n   ${clip(h.content, 1500)}`
      : h.summary
        ? `\n   ${clip(h.summary, 400)}`
        : '';
    return `${i + 1}. ${h.name} — ${h.document.title} (score ${h.score.toFixed(2)}; ${uri})${tags}${body}`;
  });
  return `${data.total} topic${data.total === 1 ? '' : 's'} matched:\n${lines.join('\n')}`;
}

export function renderTopic(t: TopicDetailData): string {
  const head = `${t.name} (${t.type}, depth ${t.depth}; tag version ${t.version}${
    t.tag_ids.length ? `, tags ${t.tag_ids.join(', ')}` : ''
  })`;
  return [head, t.summary, t.content ?? '(the document root has no body; read its children)']
    .filter(Boolean)
    .join('\n\n');
}
