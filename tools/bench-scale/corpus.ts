/**
 * Memory for the scale benchmarks, made from LoCoMo turns (read from a path, never copied):
 * each conversation session is cut into segments of `turnsPerSegment` turns, the offline
 * extractor turns each segment into an episode with its atomic facts, and the offline
 * embedder embeds them, exactly as extractSegment does. Copies are then written through
 * the engine's extraction writer (writeExtraction, the same statements and triggers as
 * background processing), as one owner's memory: every copy is a new episode with new
 * ids, its own time, and its vectors moved by a little noise (so an HNSW graph does not
 * hold exact duplicates). Each copy's turns are stored beside it as extracted messages of
 * the owner (with their embeddings), as a store that processed them holds them. The
 * questions of the data set serve as queries.
 */
import { readFileSync } from 'node:fs';
import { type Db, jsonParam, type Sql } from '../../src/core/db.js';
import { newId } from '../../src/core/ids.js';
import type { Embedder, Extraction, Extractor, SegmentMessage } from '../../src/core/ports.js';
import { episodeEmbeddingText, writeExtraction } from '../../src/engine/memory/extract.js';
import { vectorText } from '../../src/engine/search/vector.js';
import { readLocomo } from './conversations.js';

export interface Template {
  turns: string[];
  extraction: Extraction;
  vectors: number[][];
  /** One per turn. */
  turnVectors: number[][];
}

export interface Corpus {
  templates: Template[];
  questions: string[];
  /** Mean turns per episode (messages an episode stands for). */
  turnsPerEpisode: number;
}

export async function buildCorpus(
  path: string,
  extractor: Extractor,
  embedder: Embedder,
  opts: { turnsPerSegment: number; maxFacts: number },
): Promise<Corpus> {
  const questions = (JSON.parse(readFileSync(path, 'utf8')) as { qa: { question: string }[] }[]).flatMap(
    (s) => s.qa.map((q) => q.question),
  );
  const templates: Template[] = [];
  let turnsTotal = 0;
  for (const conversation of readLocomo(path)) {
    for (const session of conversation.sessions) {
      for (let i = 0; i < session.turns.length; i += opts.turnsPerSegment) {
        const turns = session.turns.slice(i, i + opts.turnsPerSegment).map((t) => t.text);
        const segment = messagesOf(turns, 'owner', 's', 0);
        const x = await extractor.extract(segment, { humans: ['owner'], agents: [] });
        const extraction: Extraction = {
          episode: { ...x.episode, facts: x.episode.facts.slice(0, opts.maxFacts) },
          profiles: [],
          cases: [],
        };
        const vectors = await embedder.embed([
          episodeEmbeddingText(extraction.episode),
          ...extraction.episode.facts.map((f) => f.content),
        ]);
        templates.push({ turns, extraction, vectors, turnVectors: await embedder.embed(turns) });
        turnsTotal += turns.length;
      }
    }
  }
  return { templates, questions, turnsPerEpisode: turnsTotal / Math.max(1, templates.length) };
}

function messagesOf(turns: string[], owner: string, sessionId: string, t0: number): SegmentMessage[] {
  return turns.map((content, i) => ({
    id: `m${i}`,
    session_id: sessionId,
    sender_id: owner,
    sender_name: owner,
    role: 'user' as const,
    content,
    timestamp: t0 + i * 30_000,
    tool_calls: null,
    tool_call_id: null,
  }));
}

function jitter(v: readonly number[], rand: () => number): number[] {
  const out = v.map((x) => x + (rand() - 0.5) * 0.02);
  const n = Math.hypot(...out) || 1;
  return out.map((x) => x / n);
}

/** Deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface WriteTarget {
  tenantId: string;
  appId: string;
  projectId: string;
  owner: string;
}

/**
 * Writes episodes [from, to) of an owner (template i mod templates), `concurrency`
 * transactions at a time, one extraction per transaction. Returns rows written.
 */
export async function writeEpisodes(
  db: Db,
  corpus: Corpus,
  w: WriteTarget,
  from: number,
  to: number,
  concurrency: number,
): Promise<number> {
  let next = from;
  let rows = 0;
  const rand = prng(from * 7919 + w.owner.length);
  const worker = async () => {
    while (next < to) {
      const i = next++;
      const t = corpus.templates[i % corpus.templates.length]!;
      const sessionId = `s${Math.floor(i / 20)}`;
      const segment = messagesOf(t.turns, w.owner, sessionId, Date.UTC(2023, 0, 1) + i * 3_600_000).map(
        (m, k) => ({ ...m, id: `${sessionId}-${i}-${k}` }),
      );
      // The template's fact sources name template message ids (m0, m1, ...): map them onto this copy's.
      const extraction: Extraction = {
        ...t.extraction,
        episode: {
          ...t.extraction.episode,
          facts: t.extraction.episode.facts.map((f) => ({
            ...f,
            message_ids: f.message_ids.map((id) => `${sessionId}-${i}-${id.slice(1)}`),
          })),
        },
      };
      const vectors = t.vectors.map((v) => jitter(v, rand));
      const segmentId = newId();
      await db.transaction(async (tx) => {
        await writeExtraction(
          tx,
          { tenantId: w.tenantId },
          { appId: w.appId, projectId: w.projectId },
          segmentId,
          segment,
          [w.owner],
          extraction,
          vectors,
        );
        await writeTurns(
          tx,
          w,
          segmentId,
          segment,
          t.turnVectors.map((v) => jitter(v, rand)),
        );
      });
      rows += 1 + extraction.episode.facts.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return rows;
}

/** The segment's turns as extracted messages of the owner, with their embeddings. */
async function writeTurns(
  tx: Sql,
  w: WriteTarget,
  segmentId: string,
  segment: SegmentMessage[],
  vectors: number[][],
) {
  const rows = segment.map((m, i) => ({
    id: newId(),
    session_id: m.session_id,
    content: m.content,
    ts: m.timestamp,
    embedding: vectorText(vectors[i]!),
  }));
  await tx.query(
    `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, sender_name, role, content, ts,
                           state, segment_id, embedding, owner_ids)
     SELECT $1, x.id, $2, $3, x.session_id, $4, $4, 'user', x.content, x.ts, 'extracted', $5, x.embedding::vector, ARRAY[$4]
     FROM jsonb_to_recordset($6::jsonb) AS x(id text, session_id text, content text, ts bigint, embedding text)`,
    [w.tenantId, w.appId, w.projectId, w.owner, segmentId, jsonParam(rows)],
  );
}
