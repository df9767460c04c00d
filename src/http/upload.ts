import { invalid } from '../core/errors.js';

/**
 * A multipart document upload (`file`, optional `title`, `category_id`) as the JSON ingest
 * body it stands for: the file travels as `content.base64` with its name and extension, and
 * the engine reads it like a JSON body carrying a file. The title defaults to the file name
 * without its extension.
 */
const TYPE_OF_EXT: Record<string, string> = { pdf: 'pdf', docx: 'doc', html: 'html', htm: 'html' };

export async function documentForm(form: FormData): Promise<unknown> {
  const file = form.get('file');
  if (!file || typeof file === 'string')
    throw invalid('file', 'a multipart upload needs the document in a "file" field');
  const name = file.name || 'document';
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const field = (key: string) => {
    const v = form.get(key);
    return typeof v === 'string' ? v : undefined;
  };
  const category = field('category_id');
  return {
    title: field('title') ?? (dot > 0 ? name.slice(0, dot) : name),
    ...(category === undefined ? {} : { category_id: category }),
    content: {
      type: TYPE_OF_EXT[ext] ?? 'text',
      base64: Buffer.from(await file.arrayBuffer()).toString('base64'),
      name,
      ...(ext ? { ext } : {}),
    },
  };
}
