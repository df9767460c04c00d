import { AlignmentType, Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { upstreamErrors } from '../helpers/upstream.js';
import { createKb, waitTask } from './fixture.js';

/**
 * Documents uploaded as files (multipart/form-data, or base64 in a JSON body): .md, .txt,
 * .html, .docx and .pdf read by their parsers, the files made here from invented text.
 */
async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 50, y: 780 - i * 18, size: 12, font });
    });
  }
  return pdf.save();
}

async function makeDocx(): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: 'Beekeeping handbook', heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: 'Hives are inspected every nine days in spring.' }),
          new Paragraph({ text: 'Swarm control', heading: HeadingLevel.HEADING_2 }),
          new Paragraph({
            text: 'Split the colony when queen cells appear on the frames.',
            alignment: AlignmentType.LEFT,
          }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

describe.each(DRIVERS)('knowledge-base file uploads [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let kb: string;

  const upload = async (
    name: string,
    bytes: Uint8Array | string,
    fields: Record<string, string> = {},
    path = `/api/v2/knowledge_bases/${kb}/documents`,
    method = 'POST',
  ) => {
    const form = new FormData();
    form.append('file', new Blob([typeof bytes === 'string' ? bytes : Buffer.from(bytes)]), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch(`${s.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const ingested = async (name: string, bytes: Uint8Array | string, fields: Record<string, string> = {}) => {
    const r = await upload(name, bytes, fields);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(upstreamErrors('POST', '/api/v2/knowledge_bases/{kb_id}/documents', 202, r.body)).toEqual([]);
    const task = await waitTask(s, key, r.body.data.task_id);
    expect(task.status, JSON.stringify(task)).toBe('success');
    const doc = (await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${r.body.data.id}`, { key }))
      .body.data;
    const topics = (
      await s.call(
        'GET',
        `/api/v2/knowledge_bases/${kb}/documents/${r.body.data.id}/topics?include=content`,
        { key },
      )
    ).body.data.topics;
    return { doc, topics };
  };

  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    kb = await createKb(s, key, 'Uploads');
  });
  afterAll(() => s.close());

  it('reads Markdown and plain text files; the title defaults to the file name', async () => {
    const md = await ingested(
      'orchard-guide.md',
      '# Pruning\n\nCut apple trees in late winter.\n\n# Picking\n\nTwist pears gently.',
    );
    expect(md.doc).toMatchObject({
      title: 'orchard-guide',
      source_name: 'orchard-guide.md',
      source_type: 'markdown',
    });
    expect(md.topics.map((t: any) => t.name)).toEqual(['orchard-guide', 'Pruning', 'Picking']);
    const txt = await ingested(
      'notes.txt',
      'First paragraph about hedges.\n\nSecond paragraph about ponds.',
      {
        title: 'Garden notes',
      },
    );
    expect(txt.doc).toMatchObject({ title: 'Garden notes', source_type: 'txt' });
    expect(txt.topics[1].content).toContain('Second paragraph about ponds.');
  });

  it('reads HTML with its headings, lists and tables', async () => {
    const html = `<html><body><h1>Bakery</h1><p>Ovens preheat at dawn.</p><h2>Sourdough</h2>
      <ul><li>Feed the starter</li><li>Rest the dough</li></ul>
      <table><tr><th>Loaf</th><th>Minutes</th></tr><tr><td>Rye</td><td>55</td></tr></table></body></html>`;
    const { doc, topics } = await ingested('bakery.html', html);
    expect(doc.source_type).toBe('html');
    const sourdough = topics.find((t: any) => t.name === 'Sourdough');
    expect(sourdough.depth).toBe(2);
    expect(sourdough.content).toMatch(/Feed the starter/);
    expect(sourdough.content).toMatch(/\|\s*Rye\s*\|\s*55\s*\|/);
  });

  it('reads .docx through its heading styles', async () => {
    const { doc, topics } = await ingested('bees.docx', await makeDocx());
    expect(doc.source_type).toBe('docx');
    expect(topics.map((t: any) => t.name)).toEqual(['bees', 'Beekeeping handbook', 'Swarm control']);
    expect(topics[2].content).toContain('queen cells');
  });

  it('reads .pdf text, page by page, and finds it by search', async () => {
    const pdf = await makePdf([
      ['Ferry timetable', 'The morning ferry leaves the quay at seven.'],
      ['Winter service', 'In winter the evening crossing is cancelled when gales blow.'],
    ]);
    const { doc, topics } = await ingested('ferry.pdf', pdf);
    expect(doc.source_type).toBe('pdf');
    const text = topics.map((t: any) => t.content ?? '').join('\n');
    expect(text).toContain('The morning ferry leaves the quay at seven.');
    expect(text).toContain('evening crossing is cancelled');
    const hit = await s.call('POST', `/api/v2/knowledge_bases/${kb}/search`, {
      key,
      body: { query: 'evening crossing cancelled gales', method: 'keyword' },
    });
    expect(hit.body.data.hits[0].doc_id).toBe(doc.id);
  });

  it('takes a file as base64 in a JSON body too', async () => {
    const pdf = await makePdf([['Lighthouse log', 'The lamp was lit at dusk.']]);
    const r = await s.call('POST', `/api/v2/knowledge_bases/${kb}/documents`, {
      key,
      body: {
        title: 'Lighthouse',
        content: { type: 'pdf', base64: Buffer.from(pdf).toString('base64'), name: 'log.pdf' },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect((await waitTask(s, key, r.body.data.task_id)).status).toBe('success');
  });

  it('replaces a document with an uploaded file (PUT)', async () => {
    const { doc } = await ingested('draft.md', '# Draft\n\nOld words.');
    const r = await upload(
      'final.md',
      '# Final\n\nNew words.',
      {},
      `/api/v2/knowledge_bases/${kb}/documents/${doc.id}`,
      'PUT',
    );
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(upstreamErrors('PUT', '/api/v2/knowledge_bases/{kb_id}/documents/{doc_id}', 202, r.body)).toEqual(
      [],
    );
    await waitTask(s, key, r.body.data.task_id);
    const topics = (await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents/${doc.id}/topics`, { key }))
      .body.data.topics;
    expect(topics.map((t: any) => t.name)).toEqual(['final', 'Final']);
  });

  it('refuses what it cannot read with 422 and stores nothing', async () => {
    const before = (await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents`, { key })).body.data.total;
    const cases: [string, Uint8Array | string, string][] = [
      ['tool.exe', 'MZ binary', 'content.ext'],
      ['broken.pdf', 'not a pdf at all', 'content.base64'],
      ['broken.docx', 'not a zip', 'content.base64'],
      ['empty.md', '   ', 'content.base64'],
      ['latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'content.base64'],
    ];
    for (const [name, bytes, param] of cases) {
      const r = await upload(name, bytes);
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(422);
      expect(r.body.param, name).toBe(param);
    }
    const form = new FormData();
    form.append('title', 'no file');
    const noFile = await fetch(`${s.url}/api/v2/knowledge_bases/${kb}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(noFile.status).toBe(422);
    expect(((await noFile.json()) as any).param).toBe('file');
    const base64Json = await s.call('POST', `/api/v2/knowledge_bases/${kb}/documents`, {
      key,
      body: { title: 'x', content: { type: 'image', base64: 'aGVsbG8=' } },
    });
    expect(base64Json.status).toBe(422);
    expect((await s.call('GET', `/api/v2/knowledge_bases/${kb}/documents`, { key })).body.data.total).toBe(
      before,
    );
  });
});
