import { marked, type Token } from 'marked';
import { leadSentences } from '../text.js';

/**
 * Splits a document (Markdown or plain text) into a topic tree from its own structure.
 *
 * - The root topic (depth 0) is the document itself and has no body of its own; every
 *   heading opens a section under the nearest enclosing heading of a higher level.
 * - The blocks under a heading (paragraphs, lists, tables, code, quotes) stay in the
 *   section's own content while they fit one topic; otherwise they become element topics
 *   under it, consecutive blocks packed up to the size limit, a block larger than the
 *   limit cut at line, then sentence, then character boundaries.
 * - Text before the first heading, and plain text (which has no headings), becomes
 *   sections under the root, its paragraphs packed up to the size limit, each named by
 *   its first sentence.
 *
 * Topics are sized for a context window: no topic's content exceeds MAX_TOPIC_CHARS
 * (about 750 tokens), so a handful of hits fit any model's prompt.
 */
export const MAX_TOPIC_CHARS = 3000;
const MAX_NAME = 120;

export type TopicKind = 'root' | 'section' | 'element';

export interface TopicDraft {
  type: TopicKind;
  name: string;
  content: string;
  depth: number;
  /** Pre-order position in the document (0 = root). */
  seq: number;
  /** seq of the parent topic (null for the root). */
  parent: number | null;
  children: number[];
  /** Heading path from the root's first section down to this topic's section. */
  path: string[];
}

interface Node {
  type: TopicKind;
  name: string;
  level: number;
  depth: number;
  blocks: string[];
  sections: Node[];
  path: string[];
}

export function splitDocument(title: string, text: string, maxChars = MAX_TOPIC_CHARS): TopicDraft[] {
  const root: Node = {
    type: 'root',
    name: clip(title),
    level: 0,
    depth: 0,
    blocks: [],
    sections: [],
    path: [],
  };
  const stack: Node[] = [root];
  for (const tok of marked.lexer(text.replace(/\r\n?/g, '\n'))) {
    if (tok.type === 'space' || tok.type === 'hr') continue;
    if (tok.type === 'heading') {
      const level = (tok as Token & { depth: number }).depth;
      while (stack.length > 1 && stack[stack.length - 1]!.level >= level) stack.pop();
      const parent = stack[stack.length - 1]!;
      const name =
        clip(plain((tok as Token & { text: string }).text)) || `Section ${parent.sections.length + 1}`;
      const node: Node = {
        type: 'section',
        name,
        level,
        depth: parent.depth + 1,
        blocks: [],
        sections: [],
        path: [...parent.path, name],
      };
      parent.sections.push(node);
      stack.push(node);
      continue;
    }
    const raw = tok.raw.trim();
    if (raw) stack[stack.length - 1]!.blocks.push(raw);
  }

  const out: TopicDraft[] = [];
  const emit = (node: Node, parent: number | null): void => {
    const seq = out.length;
    const draft: TopicDraft = {
      type: node.type,
      name: node.name,
      content: '',
      depth: node.depth,
      seq,
      parent,
      children: [],
      path: node.path,
    };
    out.push(draft);
    if (parent !== null) out[parent]!.children.push(seq);
    const whole = node.blocks.join('\n\n');
    if (node.type !== 'root' && whole.length <= maxChars) draft.content = whole;
    else
      for (const chunk of pack(node.blocks, maxChars)) {
        const name = elementName(chunk, node.name);
        const child: TopicDraft = {
          type: node.type === 'root' ? 'section' : 'element',
          name,
          content: chunk,
          depth: node.depth + 1,
          seq: out.length,
          parent: seq,
          children: [],
          path: node.type === 'root' ? [name] : node.path,
        };
        out.push(child);
        draft.children.push(child.seq);
      }
    for (const s of node.sections) emit(s, seq);
  };
  emit(root, null);
  return out;
}

/** Consecutive blocks packed into chunks of at most maxChars. */
function pack(blocks: readonly string[], maxChars: number): string[] {
  const chunks: string[] = [];
  let cur = '';
  for (const block of blocks.flatMap((b) => cut(b, maxChars))) {
    if (cur && cur.length + 2 + block.length > maxChars) {
      chunks.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n\n${block}` : block;
  }
  if (cur) chunks.push(cur);
  return chunks;
}

/** A block cut into pieces of at most maxChars: at line breaks, then sentences, then characters. */
function cut(block: string, maxChars: number): string[] {
  if (block.length <= maxChars) return [block];
  for (const sep of [/\n/, /(?<=[.!?])\s+/]) {
    const parts = block.split(sep).filter((p) => p.trim());
    if (parts.length > 1) {
      const out: string[] = [];
      let cur = '';
      for (const p of parts.flatMap((x) => cut(x, maxChars))) {
        const joined = cur ? `${cur}${sep.source === '\\n' ? '\n' : ' '}${p}` : p;
        if (joined.length > maxChars) {
          out.push(cur);
          cur = p;
        } else cur = joined;
      }
      if (cur) out.push(cur);
      return out;
    }
  }
  const out: string[] = [];
  for (let i = 0; i < block.length; i += maxChars) out.push(block.slice(i, i + maxChars));
  return out;
}

/** An element's name: its first sentence (without Markdown), or its section's name. */
function elementName(chunk: string, fallback: string): string {
  const first = plain(chunk.split('\n').find((l) => plain(l).length > 0) ?? '');
  return clip(leadSentences(first, MAX_NAME) || fallback);
}

/** Markdown inline syntax and list / table / quote markers removed. */
export function plain(md: string): string {
  return md
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(?:[-*+]|\d+[.)]|>|\|)\s*/gm, '')
    .replace(/[*_`~|#]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const clip = (s: string) => (s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1).trimEnd()}…` : s);
