/**
 * Knowledge bases at the size of a real manual: ingest one ~300-page document and search
 * it, in one run against one engram (the embedded store in a temp dir, or DATABASE_URL
 * when set), with the default offline embedder and no LLM. Not shipped.
 *
 *   npm run bench:kb [-- --repeat N] [--pages P]
 *
 * The document is this repository itself: its Markdown docs (README, docs/, tools/) under
 * their own headings, then every TypeScript file of src/, test/ and tools/ as a section
 * named by its path (code in a fenced block), about 3,000 characters a page.
 *
 * Prints: ingest time (request to task success), topics per second; per method (keyword,
 * vector, hybrid) search p50 / p95 over the question set, each beside a raw-SQL floor
 * measured in the same run (keyword: one ts_rank query over the knowledge base's topics;
 * vector: one pgvector distance ORDER BY with the query embedding computed beforehand;
 * hybrid: both), as the ratio of medians; and hit@1 / hit@5 of the right topic per
 * method for the questions below (the right topic: the section named, or any topic under
 * it).
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { silentLogger } from '../src/core/log.js';
import { queryLexemes } from '../src/engine/search/keyword.js';
import { vectorText } from '../src/engine/search/vector.js';
import { openEngram } from '../src/engram.js';

const { values } = parseArgs({
  options: { repeat: { type: 'string', default: '5' }, pages: { type: 'string', default: '300' } },
});
const REPEAT = Number(values.repeat);
const PAGE_CHARS = 3000;

/** Questions written for this repository's docs, each with the heading of the section that answers it. */
const QUESTIONS: { q: string; section: string }[] = [
  { q: 'How do I register engram with Claude Desktop over stdio?', section: 'Claude Desktop (stdio)' },
  {
    q: 'Which offline embedding model is the default and how was it chosen?',
    section: 'Offline embedder: how the default was chosen',
  },
  {
    q: 'What happens when a second process opens the same data directory?',
    section: 'One owner per data directory',
  },
  { q: 'How does a client get notified when a subscribed resource changes?', section: 'Resources' },
  {
    q: 'Which vector index is built on the embedded store and which on a PostgreSQL server?',
    section: 'Vector index strategy',
  },
  { q: 'How is the tenant resolved from the API key?', section: 'Authentication and tenancy' },
  { q: 'What does the agentic search method do when no LLM is configured?', section: 'Agentic' },
  { q: 'Why were these libraries chosen over others?', section: 'Why these libraries' },
  {
    q: 'How do I run engram on a PostgreSQL server instead of the embedded store?',
    section: 'With a PostgreSQL server',
  },
  {
    q: 'Which messages come back as unprocessed messages in a search answer?',
    section: 'Unprocessed messages',
  },
  { q: 'How is a knowledge-base document split into topics?', section: 'Knowledge bases (v2)' },
  { q: 'HTTP rerank client for TEI, vLLM, Jina and Cohere', section: 'src/engine/search/rerank.ts' },
  { q: 'tag replace compare-and-set on the topic tag version', section: 'src/engine/kb/topics.ts' },
  { q: 'splits a document into a topic tree from its headings', section: 'src/engine/kb/split.ts' },
];

function buildDocument(root: string, pages: number): string {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
  const docs = files.filter((f) => /^(README\.md|docs\/.*\.md|tools\/.*\.md)$/.test(f));
  const code = files.filter((f) => /^(src|test|tools)\/.*\.ts$/.test(f));
  const parts = docs.map((f) => readFileSync(join(root, f), 'utf8'));
  parts.push('# Source files');
  for (const f of code) parts.push(`## ${f}\n\n\`\`\`ts\n${readFileSync(join(root, f), 'utf8')}\n\`\`\``);
  const text = parts.join('\n\n');
  return text.slice(0, pages * PAGE_CHARS);
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const fmt = (ms: number) => ms.toFixed(1);

async function main(): Promise<number> {
  const text = buildDocument(process.cwd(), Number(values.pages));
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-kb-'));
  const config = loadConfig({
    ENGRAM_PORT: '0',
    ENGRAM_DATA_DIR: dir,
    ENGRAM_LOG_LEVEL: 'silent',
    ...(process.env['DATABASE_URL'] ? { DATABASE_URL: process.env['DATABASE_URL'] } : {}),
  });
  const engram = await openEngram(config, { command: 'bench', log: silentLogger, workers: true });
  try {
    const ctx = { tenantId: `bench-kb-${Date.now()}` };
    const kb = await engram.kb.createKb(ctx, { name: 'engram itself', description: '' });
    await engram.embedder.embed(['warm up the embedder']);

    const t0 = performance.now();
    const ack = await engram.kb.ingestDocument(ctx, kb.id, {
      title: 'engram: docs and source',
      category_id: '',
      content: { type: 'text', text },
    });
    let task = await engram.tasks.get(ctx.tenantId, ack.task_id);
    while (task.status !== 'success' && task.status !== 'failed') {
      await new Promise((r) => setTimeout(r, 100));
      task = await engram.tasks.get(ctx.tenantId, ack.task_id);
    }
    const ingestMs = performance.now() - t0;
    if (task.status === 'failed') throw new Error(`ingest failed: ${task.error}`);
    const doc = await engram.kb.getDocument(ctx, kb.id, ack.id);

    // the right topic of a question: its section, or any topic under it
    const paths = new Map(
      (
        await engram.db.query<{ id: string; name: string; metadata: { path?: string[] } }>(
          'SELECT id, name, metadata FROM kb_topics WHERE tenant_id = $1 AND kb_id = $2',
          [ctx.tenantId, kb.id],
        )
      ).map((r) => [r.id, new Set([r.name, ...(r.metadata.path ?? [])])]),
    );
    const right = (id: string, section: string) => paths.get(id)?.has(section) ?? false;
    const missing = QUESTIONS.filter((x) => ![...paths.values()].some((p) => p.has(x.section)));
    if (missing.length) throw new Error(`no section named ${missing.map((m) => m.section).join(', ')}`);

    const vectors = await engram.embedder.embed(QUESTIONS.map((x) => x.q));
    const terms = await Promise.all(QUESTIONS.map((x) => queryLexemes(engram.db, x.q)));
    const floors = {
      keyword: (i: number) =>
        engram.db.query(
          `SELECT id FROM kb_topics WHERE tenant_id = $1 AND kb_id = $2 AND search @@ to_tsquery('english', $3)
           ORDER BY ts_rank(search, to_tsquery('english', $3)) DESC LIMIT 10`,
          [ctx.tenantId, kb.id, terms[i]!.map((t) => `'${t.replace(/'/g, "''")}'`).join(' | ') || "''"],
        ),
      vector: (i: number) =>
        engram.db.query(
          `SELECT id FROM kb_topics WHERE tenant_id = $1 AND kb_id = $2 AND embedding IS NOT NULL
           ORDER BY embedding <=> $3::vector LIMIT 10`,
          [ctx.tenantId, kb.id, vectorText(vectors[i]!)],
        ),
    };
    const methods = ['keyword', 'vector', 'hybrid'] as const;
    const rows: string[] = [];
    for (const method of methods) {
      const times: number[] = [];
      const floorTimes: number[] = [];
      let hit1 = 0;
      let hit5 = 0;
      for (let r = 0; r < REPEAT; r++)
        for (let i = 0; i < QUESTIONS.length; i++) {
          const q = QUESTIONS[i]!;
          let s = performance.now();
          const res = await engram.kb.search(ctx, kb.id, {
            query: q.q,
            method,
            page: 1,
            top_k: 10,
            include: [],
            boost_tag_ids: [],
            filters: { tag_ids: [] },
          });
          times.push(performance.now() - s);
          s = performance.now();
          if (method !== 'vector') await floors.keyword(i);
          if (method !== 'keyword') await floors.vector(i);
          floorTimes.push(performance.now() - s);
          if (r === 0) {
            if (res.hits[0] && right(res.hits[0].id, q.section)) hit1++;
            if (res.hits.slice(0, 5).some((h) => right(h.id, q.section))) hit5++;
          }
        }
      rows.push(
        `| ${method} | ${fmt(median(times))} / ${fmt(p95(times))} | ${fmt(median(floorTimes))} / ${fmt(p95(floorTimes))} | ${(median(times) / median(floorTimes)).toFixed(1)} | ${hit1}/${QUESTIONS.length} (${(hit1 / QUESTIONS.length).toFixed(2)}) | ${hit5}/${QUESTIONS.length} (${(hit5 / QUESTIONS.length).toFixed(2)}) |`,
      );
    }
    const nodes = doc.topic_count + 1;
    console.log(
      `engram bench:kb: driver ${engram.db.driver}, embedder ${engram.embedder.id}, no LLM\n` +
        `document: ${text.length} characters (~${Math.round(text.length / PAGE_CHARS)} pages), ${doc.topic_count} topics (+ root)\n` +
        `ingest: ${(ingestMs / 1000).toFixed(1)} s from request to task success, ${(nodes / (ingestMs / 1000)).toFixed(0)} topics/s\n` +
        `search: ${QUESTIONS.length} questions x ${REPEAT} rounds per method, top_k 10; floor = raw SQL of the same route(s), no ranking core\n`,
    );
    console.log('| method | search p50 / p95 ms | raw-SQL floor p50 / p95 ms | p50 ratio | hit@1 | hit@5 |');
    console.log('| --- | --- | --- | --- | --- | --- |');
    for (const r of rows) console.log(r);
    return 0;
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
