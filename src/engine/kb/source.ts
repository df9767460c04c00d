import type { DocContent } from '../../contract/kb.js';
import { invalid } from '../../core/errors.js';
import { FILE_KINDS, type FileKind, fileToMarkdown, htmlToMarkdown } from './parsers.js';

/**
 * A document's text as the splitter reads it: Markdown (plain text is Markdown without
 * headings). A JSON body carries it in `content.text` (`type` "text" or "html") or a file's
 * bytes in `content.base64` (with `ext` or a file `name`); a multipart upload arrives as the
 * latter. `content.uri` names an uploaded object (the key object/sign answered), read like
 * a file named as it was signed. HTML, .docx and .pdf become Markdown through parsers.ts.
 */
export interface DocSource {
  text: string;
  sourceType: string;
  sourceName: string | null;
  /** The uploaded object the text was read from. */
  objectKey?: string;
}

/** An uploaded object's bytes and file name (422 at `param` when there is none). */
export type ObjectFile = (key: string, param: string) => Promise<{ bytes: Buffer; fileName: string }>;

/** `content.type` of a file whose name says nothing. */
const KIND_OF_TYPE: Partial<Record<DocContent['type'], FileKind>> = {
  text: 'markdown',
  html: 'html',
  doc: 'docx',
  pdf: 'pdf',
};

const extOf = (content: DocContent) =>
  (content.ext ?? (content.name?.includes('.') ? content.name.split('.').pop() : '') ?? '')
    .toLowerCase()
    .replace(/^\./, '');

/** The text of an ingest body's `content` (422 when it carries none engram can read). */
export async function readSource(content: DocContent, objectFile: ObjectFile): Promise<DocSource> {
  const name = content.name ?? null;
  const ext = extOf(content);
  if (!KIND_OF_TYPE[content.type])
    throw invalid(
      'content.type',
      `content.type "${content.type}" cannot be ingested: send text, html, doc (.docx) or pdf`,
    );
  if (content.base64 != null) {
    const bytes = Buffer.from(content.base64, 'base64');
    if (!bytes.length) throw invalid('content.base64', 'content.base64 is empty or not base64');
    return fromFile(content, bytes, 'content.base64');
  }
  if (content.uri != null && content.text == null) {
    const { bytes, fileName } = await objectFile(content.uri, 'content.uri');
    const named = { ...content, name: content.name ?? fileName };
    return { ...(await fromFile(named, bytes, 'content.uri')), objectKey: content.uri };
  }
  if (content.type !== 'text' && content.type !== 'html')
    throw invalid(
      'content.base64',
      `content.type "${content.type}" needs the file's bytes in content.base64 (or a multipart upload)`,
    );
  const raw = nonBlank(content.text ?? '', 'content.text');
  if (content.type === 'html' || ext === 'html' || ext === 'htm')
    return { text: nonBlank(htmlToMarkdown(raw), 'content.text'), sourceType: 'html', sourceName: name };
  return { text: raw, sourceType: ext === 'txt' ? 'txt' : 'markdown', sourceName: name };
}

async function fromFile(content: DocContent, bytes: Buffer, param: string): Promise<DocSource> {
  const ext = extOf(content);
  const kind = ext ? FILE_KINDS[ext] : KIND_OF_TYPE[content.type];
  if (!kind)
    throw invalid(
      'content.ext',
      `files of type .${ext} cannot be ingested: send .md, .txt, .html, .docx or .pdf`,
    );
  return {
    text: nonBlank(await fileToMarkdown(bytes, kind, param), param),
    sourceType: kind,
    sourceName: content.name ?? null,
  };
}

function nonBlank(text: string, param: string): string {
  if (!text.trim()) throw invalid(param, `${param} holds no text to ingest`);
  return text;
}
