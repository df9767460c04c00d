import { NodeHtmlMarkdown } from 'node-html-markdown';
import { invalid } from '../../core/errors.js';

/**
 * Files to Markdown for the splitter, each through a well-kept library:
 * - .html / .htm: node-html-markdown (headings, lists and tables keep their structure);
 * - .docx: mammoth (Word styles to HTML headings, lists, tables), then the HTML path;
 * - .pdf: unpdf (PDF.js text extraction; a PDF has no heading markup, so its text splits
 *   by paragraphs, one block per page at least);
 * - .md / .markdown / .txt: UTF-8 text as it is.
 * A file that cannot be read is a 422 on `param`. mammoth and unpdf load on the first .docx /
 * .pdf (they are large; every process start would pay for them otherwise).
 */
export type FileKind = 'markdown' | 'txt' | 'html' | 'docx' | 'pdf';

export const FILE_KINDS: Record<string, FileKind> = {
  md: 'markdown',
  markdown: 'markdown',
  txt: 'txt',
  text: 'txt',
  html: 'html',
  htm: 'html',
  docx: 'docx',
  pdf: 'pdf',
};

/** Pages past this are refused (bounded work per upload). */
export const MAX_PDF_PAGES = 2000;

export function htmlToMarkdown(html: string): string {
  return NodeHtmlMarkdown.translate(html);
}

export async function fileToMarkdown(bytes: Uint8Array, kind: FileKind, param: string): Promise<string> {
  try {
    switch (kind) {
      case 'markdown':
      case 'txt':
        return utf8(bytes);
      case 'html':
        return htmlToMarkdown(utf8(bytes));
      case 'docx': {
        const { default: mammoth } = await import('mammoth');
        const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
        return htmlToMarkdown(value);
      }
      case 'pdf':
        return await pdfText(bytes, param);
    }
  } catch (err) {
    if (err instanceof Error && err.name === 'EngramError') throw err;
    throw invalid(
      param,
      `the ${kind} file could not be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

async function pdfText(bytes: Uint8Array, param: string): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  if (pdf.numPages > MAX_PDF_PAGES)
    throw invalid(param, `the PDF has ${pdf.numPages} pages; at most ${MAX_PDF_PAGES} are read`);
  const { text } = await extractText(pdf, { mergePages: false });
  return (text as string[])
    .map((page) => page.trim())
    .filter(Boolean)
    .join('\n\n');
}

function utf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}
