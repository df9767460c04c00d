/**
 * Knowledge-base resource URIs (every variable segment percent-encoded):
 *   engram://kb/{kb_id}/documents/{doc_id}/topics             a document's topic tree
 *   engram://kb/{kb_id}/documents/{doc_id}/topics/{topic_id}  one topic
 * Memory URIs never have these shapes (see uris.ts), so both parse side by side.
 */
export type KbRef =
  | { type: 'tree'; kbId: string; docId: string }
  | { type: 'topic'; kbId: string; docId: string; topicId: string };

const enc = encodeURIComponent;

export function formatKbUri(ref: KbRef): string {
  const tree = `engram://kb/${enc(ref.kbId)}/documents/${enc(ref.docId)}/topics`;
  return ref.type === 'tree' ? tree : `${tree}/${enc(ref.topicId)}`;
}

/** The knowledge-base resource a URI names, or undefined when it names none. */
export function parseKbUri(uri: string): KbRef | undefined {
  const m = /^engram:\/\/kb\/([^/?#]+)\/documents\/([^/?#]+)\/topics(?:\/([^/?#]+))?(?:\?[^#]*)?$/.exec(uri);
  if (!m) return undefined;
  try {
    const [kbId, docId] = [decodeURIComponent(m[1]!), decodeURIComponent(m[2]!)];
    return m[3] === undefined
      ? { type: 'tree', kbId, docId }
      : { type: 'topic', kbId, docId, topicId: decodeURIComponent(m[3]) };
  } catch {
    return undefined;
  }
}
