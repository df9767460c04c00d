/**
 * Ports: what the engine needs from the outside world. Adapters live in src/providers
 * (LLM, embeddings, rerank, extractors) and src/store (Db); the composition root picks
 * them from configuration.
 */
import type { Readable } from 'node:stream';
import type { z } from 'zod';

// ---------------------------------------------------------------- embeddings

export interface Embedder {
  /** Stable identity of the model, recorded with the vectors it produced (e.g. `openai:text-embedding-3-small`). */
  readonly id: string;
  readonly dimensions: number;
  /** One vector per text, in order; vectors are L2-normalised. */
  embed(texts: readonly string[]): Promise<number[][]>;
}

// ---------------------------------------------------------------- LLM

export interface LlmJsonRequest<T> {
  /** Short name of the task, used as the structured-output schema name and in logs. */
  name: string;
  system: string;
  user: string;
  schema: z.ZodType<T>;
  temperature?: number;
}

export interface Llm {
  readonly model: string;
  /**
   * Asks for a JSON object matching schema. Tolerates models that wrap JSON in prose or
   * code fences or ignore response_format; retries a bounded number of times on malformed
   * or invalid replies and on transport failures; throws LlmError when it gives up.
   */
  json<T>(req: LlmJsonRequest<T>): Promise<T>;
}

export class LlmError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'LlmError';
  }
}

// ---------------------------------------------------------------- rerank

export interface Reranker {
  /** Relevance score per document, in the order given (higher is better). */
  rerank(query: string, documents: readonly string[]): Promise<number[]>;
}

// ---------------------------------------------------------------- extraction

export interface ToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

/** One stored message, as extraction sees it. */
export interface SegmentMessage {
  id: string;
  session_id: string;
  sender_id: string;
  sender_name: string | null;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  /** Unix milliseconds. */
  timestamp: number;
  tool_calls: ToolCall[] | null;
  tool_call_id: string | null;
}

export interface ExtractedEpisode {
  /** What the episode is about, a few words (<= 200 chars). */
  subject: string;
  /** One or two sentences (<= 1000 chars). */
  summary: string;
  /** Third-person narrative of the exchange, with names and dates (<= 8000 chars). */
  episode: string;
  /** Atomic, self-contained statements ("Rosa ran her first half marathon in Lyon on 3 March 2024"). */
  facts: ExtractedFact[];
}

export interface ExtractedFact {
  content: string;
  /** Ids of the segment messages the fact rests on (a subset of the segment's ids). */
  message_ids: string[];
}

export interface ExplicitInfo {
  /** Kind of fact, e.g. `preference`, `occupation`, `location`, `relationship`, `plan`, `hobby`. */
  category: string;
  description: string;
  /** Ids of the segment messages it rests on. */
  message_ids: string[];
}

export interface ImplicitTrait {
  trait: string;
  description: string;
  message_ids: string[];
}

/** What one segment says about one human participant. */
export interface ProfileObservation {
  user_id: string;
  explicit_info: ExplicitInfo[];
  implicit_traits: ImplicitTrait[];
}

/** A distilled agent trajectory (assistant working through tool calls). */
export interface ExtractedCase {
  agent_id: string;
  task_intent: string;
  approach: string;
  /** 0..1; 0.5 = no opinion. Cases under 0.2 never become skills. */
  quality_score: number;
  key_insight: string | null;
}

export interface Extraction {
  episode: ExtractedEpisode;
  profiles: ProfileObservation[];
  cases: ExtractedCase[];
}

export interface CaseForSkill {
  id: string;
  task_intent: string;
  approach: string;
  quality_score: number;
  key_insight: string | null;
}

export interface ExtractedSkill {
  name: string;
  description: string;
  /** The reusable procedure, ready to put in a prompt. */
  content: string;
  /** 0..1 */
  confidence: number;
}

export interface Extractor {
  readonly kind: 'llm' | 'offline';
  /**
   * Memory from one segment of a session. `humans` are the sender ids with role user,
   * `agents` those with role assistant; profiles are produced for humans only, cases for
   * agents that used tools.
   */
  extract(
    segment: readonly SegmentMessage[],
    ctx: { humans: string[]; agents: string[] },
  ): Promise<Extraction>;
  /** True when `next` starts a new topic relative to the buffered messages. */
  isTopicShift(buffer: readonly SegmentMessage[], next: SegmentMessage): Promise<boolean>;
  /** Consolidates similar cases of one agent into one reusable skill. */
  distillSkill(cases: readonly CaseForSkill[]): Promise<ExtractedSkill>;
}

// ---------------------------------------------------------------- object storage

/** Where signed uploads go: the local data dir, or an S3-compatible bucket. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** A presigned POST (url + form fields) accepting one file of at most maxSize bytes under key. */
  presign(o: {
    tenantId: string;
    key: string;
    maxSize: number;
    expiresAt: number;
    /** Origin of the request asking (where the local store is reached). */
    origin: string;
  }): Promise<{ url: string; fields: Record<string, string> }>;
  /** Up to maxBytes of the object, or undefined when nothing was uploaded under key. */
  read(tenantId: string, key: string, maxBytes: number): Promise<Buffer | undefined>;
  /** Stores bytes under key, replacing what was there, all or nothing. */
  write(tenantId: string, key: string, bytes: Buffer): Promise<void>;
  /** Removes the object (nothing when there is none). */
  remove(tenantId: string, key: string): Promise<void>;
  /**
   * A store that takes uploads itself (the local one, at LOCAL_UPLOAD_PATH): checks the
   * signed form fields and stores the file streamed after them.
   */
  receive?(
    fields: Record<string, string>,
    file: Readable,
  ): Promise<{ tenantId: string; key: string; size: number }>;
}

/** Where the local object store takes uploads, relative to the server's origin. */
export const LOCAL_UPLOAD_PATH = '/api/v2/objects';
