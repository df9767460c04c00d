import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { type Logger, silentLogger } from '../../core/log.js';
import { type Llm, LlmError, type LlmJsonRequest } from '../../core/ports.js';
import { extractJson } from './json.js';

/**
 * The `Llm` port over any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM,
 * Ollama, llama.cpp, LiteLLM...). The SDK's own retries are off: engram retries itself so
 * that one bounded budget covers both transport failures and malformed replies.
 */
export interface OpenAiLlmOptions {
  /** e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseURL: string;
  apiKey?: string | undefined;
  model: string;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  /** Extra attempts after the first, shared by transport and malformed-output failures (default 2). */
  maxRetries?: number;
  /** First transport backoff; doubles each retry, capped at 2 s (default 200 ms). */
  backoffMs?: number;
  logger?: Logger;
}

/** How to ask for JSON; degrades per instance when a server rejects a mode. */
type FormatMode = 'json_schema' | 'json_object' | 'none';
const NEXT_MODE: Record<FormatMode, FormatMode | undefined> = {
  json_schema: 'json_object',
  json_object: 'none',
  none: undefined,
};

type Message = { role: 'system' | 'user' | 'assistant'; content: string };

const MAX_BACKOFF_MS = 2000;
const MAX_ECHO_CHARS = 2000;

export class OpenAiLlm implements Llm {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly maxRetries: number;
  private readonly backoffMs: number;
  private readonly log: Logger;
  private format: FormatMode = 'json_schema';
  private sendTemperature = true;

  constructor(opts: OpenAiLlmOptions) {
    this.model = opts.model;
    this.maxRetries = Math.max(0, opts.maxRetries ?? 2);
    this.backoffMs = opts.backoffMs ?? 200;
    this.log = opts.logger ?? silentLogger;
    this.client = new OpenAI({
      baseURL: opts.baseURL,
      apiKey: opts.apiKey ?? 'not-needed',
      timeout: opts.timeoutMs ?? 60_000,
      maxRetries: 0,
      organization: null,
      project: null,
      // The SDK's default logger writes to the console; stdout belongs to MCP over stdio.
      logLevel: 'off',
    });
  }

  /** The structured-output mode this instance currently uses (after any fallbacks). */
  get responseFormatMode(): FormatMode {
    return this.format;
  }

  async json<T>(req: LlmJsonRequest<T>): Promise<T> {
    const attempts = this.maxRetries + 1;
    const base: Message[] = [
      { role: 'system', content: req.system },
      { role: 'user', content: req.user },
    ];
    let correction: Message[] = [];
    let lastError: unknown;
    let lastRetryable = false;
    let transportFailures = 0;

    for (let attempt = 1; attempt <= attempts; attempt++) {
      let content: string;
      try {
        content = await this.complete(req, [...base, ...correction]);
      } catch (err) {
        const retryAfter = transportRetry(err);
        if (retryAfter === undefined) {
          throw new LlmError(`${req.name}: LLM request failed: ${describe(err)}`, false, { cause: err });
        }
        lastError = err;
        lastRetryable = true;
        this.log.warn('llm request failed', { task: req.name, attempt, error: describe(err) });
        if (attempt < attempts) {
          const backoff = Math.min(this.backoffMs * 2 ** transportFailures, MAX_BACKOFF_MS);
          transportFailures++;
          await sleep(Math.min(Math.max(backoff, retryAfter), MAX_BACKOFF_MS));
        }
        continue;
      }

      const result = parseReply(content, req.schema);
      if (result.ok) return result.value;
      lastError = new Error(result.error);
      lastRetryable = false;
      this.log.warn('llm reply malformed', { task: req.name, attempt, error: result.error });
      correction = [
        { role: 'assistant', content: clip(content, MAX_ECHO_CHARS) },
        {
          role: 'user',
          content:
            `Your previous reply could not be used: ${result.error}\n` +
            'Reply again with only the JSON object, matching the requested fields and types exactly.',
        },
      ];
    }

    throw new LlmError(
      `${req.name}: gave up after ${attempts} attempt(s): ${describe(lastError)}`,
      lastRetryable,
      { cause: lastError },
    );
  }

  /**
   * One chat completion. Falls back through response_format modes (and drops temperature)
   * when the server rejects them, remembering the fallback for later calls; these
   * fallbacks do not use up attempts.
   */
  private async complete<T>(req: LlmJsonRequest<T>, messages: Message[]): Promise<string> {
    for (;;) {
      const mode = this.format;
      const withTemperature = this.sendTemperature;
      const body: ChatCompletionCreateParamsNonStreaming = { model: this.model, messages };
      if (withTemperature) body.temperature = req.temperature ?? 0;
      const schema = mode === 'json_schema' ? jsonSchemaOf(req.schema) : null;
      if (mode === 'json_schema' && schema) {
        body.response_format = {
          type: 'json_schema',
          json_schema: { name: schemaName(req.name), schema, strict: false },
        };
      } else if (mode !== 'none') {
        body.response_format = { type: 'json_object' };
      }
      if (mode !== 'json_schema' || !schema) body.messages = withSchemaHint(messages, req.schema);

      try {
        const completion = await this.client.chat.completions.create(body);
        return completion.choices[0]?.message?.content ?? '';
      } catch (err) {
        if (mode !== 'none' && rejects(err, /response_format|json_schema|json_object|structured/i)) {
          const next = NEXT_MODE[mode];
          if (this.format === mode && next) this.format = next;
          this.log.warn('llm server rejected response_format; falling back', { from: mode, to: next });
          continue;
        }
        if (withTemperature && rejects(err, /temperature/i)) {
          this.sendTemperature = false;
          this.log.warn('llm server rejected temperature; omitting it');
          continue;
        }
        throw err;
      }
    }
  }
}

/** Without structured output, the model only knows the shape if we tell it. */
function withSchemaHint(messages: Message[], schema: z.ZodType): Message[] {
  const js = jsonSchemaOf(schema);
  if (!js) return messages;
  const [first, ...rest] = messages;
  if (!first) return messages;
  const hint = `\n\nReply with a single JSON object (no prose, no code fences) matching this JSON Schema:\n${JSON.stringify(js)}`;
  return [{ ...first, content: first.content + hint }, ...rest];
}

const schemaCache = new WeakMap<z.ZodType, Record<string, unknown> | null>();

/** JSON Schema of what the model must produce (cached); null when it cannot be represented. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> | null {
  const cached = schemaCache.get(schema);
  if (cached !== undefined) return cached;
  let out: Record<string, unknown> | null;
  try {
    const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    out = rest as Record<string, unknown>;
  } catch {
    out = null;
  }
  schemaCache.set(schema, out);
  return out;
}

type ReplyResult<T> = { ok: true; value: T } | { ok: false; error: string };

function parseReply<T>(content: string, schema: z.ZodType<T>): ReplyResult<T> {
  let raw: unknown;
  try {
    raw = extractJson(content);
  } catch (err) {
    return { ok: false, error: clip(describe(err), 500) };
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, error: clip(`invalid JSON fields: ${z.prettifyError(parsed.error)}`, 1000) };
}

/**
 * Milliseconds to wait at least before retrying a transport failure (timeouts, connection
 * errors, 408/409/429/5xx), or undefined when the failure is not worth retrying.
 */
function transportRetry(err: unknown): number | undefined {
  if (err instanceof OpenAI.APIConnectionError) return 0; // includes timeouts
  if (err instanceof OpenAI.APIError) {
    const status = err.status ?? 0;
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      const header = Number(err.headers?.get('retry-after'));
      return Number.isFinite(header) && header > 0 ? header * 1000 : 0;
    }
  }
  return undefined;
}

/** A 400/422 whose message or param names what the pattern matches. */
function rejects(err: unknown, pattern: RegExp): boolean {
  if (!(err instanceof OpenAI.APIError)) return false;
  if (err.status !== 400 && err.status !== 422) return false;
  return pattern.test(`${err.message} ${err.param ?? ''} ${safeStringify(err.error)}`);
}

function schemaName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'result';
}

function describe(err: unknown): string {
  if (err instanceof OpenAI.APIConnectionTimeoutError) return 'request timed out';
  if (err instanceof Error) return err.message;
  return String(err);
}

function safeStringify(v: unknown): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '';
  }
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
