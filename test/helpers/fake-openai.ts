import { createServer, type IncomingMessage, type Server } from 'node:http';

/**
 * A scripted OpenAI-compatible HTTP server on loopback: the only way tests stand in for an
 * LLM, an embeddings service or a rerank service. Each route answers from a queue of
 * scripted replies (or a handler function when the queue is empty) and records every
 * request it receives.
 *
 * Routes: POST /v1/chat/completions, POST /v1/embeddings, POST /rerank (and /v1/rerank).
 */
export type FakeReply =
  /** A chat completion whose message content is this string (malformed JSON allowed). */
  | { content: string; delayMs?: number }
  /** An HTTP error status with a JSON error body. */
  | { status: number; body?: unknown; delayMs?: number }
  /** Never answers within the client's timeout. */
  | { hangMs: number }
  /** A raw JSON body with status 200. */
  | { json: unknown; delayMs?: number };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

type Route = 'chat' | 'embeddings' | 'rerank';

export class FakeOpenAI {
  readonly requests: RecordedRequest[] = [];
  private readonly queues: Record<Route, FakeReply[]> = { chat: [], embeddings: [], rerank: [] };
  private readonly handlers: Partial<Record<Route, (body: any) => FakeReply | Promise<FakeReply>>> = {};
  private server: Server | undefined;
  url = '';

  /** Queues replies for the next requests of a route, in order. */
  script(route: Route, ...replies: FakeReply[]): this {
    this.queues[route].push(...replies);
    return this;
  }

  /** Answers every request of a route the queue does not cover. */
  handle(route: Route, fn: (body: any) => FakeReply | Promise<FakeReply>): this {
    this.handlers[route] = fn;
    return this;
  }

  /** Base URL for an OpenAI client (`.../v1`). */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  requestsTo(route: Route): RecordedRequest[] {
    const paths: Record<Route, RegExp> = {
      chat: /chat\/completions$/,
      embeddings: /embeddings$/,
      rerank: /rerank$/,
    };
    return this.requests.filter((r) => paths[route].test(r.path));
  }

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        body = undefined;
      }
      const path = (req.url ?? '').split('?')[0] ?? '';
      this.requests.push({ path, headers: req.headers, body });
      const route: Route | undefined = path.endsWith('/chat/completions')
        ? 'chat'
        : path.endsWith('/embeddings')
          ? 'embeddings'
          : path.endsWith('/rerank')
            ? 'rerank'
            : undefined;
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      const handler = this.handlers[route];
      const reply = this.queues[route].shift() ?? (handler ? await handler(body) : undefined);
      if (!reply) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end('{"error":{"message":"no scripted reply"}}');
        return;
      }
      if ('hangMs' in reply) {
        const t = setTimeout(() => res.destroy(), reply.hangMs);
        res.on('close', () => clearTimeout(t));
        return;
      }
      if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
      if ('status' in reply) {
        res
          .writeHead(reply.status, { 'content-type': 'application/json' })
          .end(
            JSON.stringify(
              reply.body ?? { error: { message: `scripted ${reply.status}`, type: 'server_error' } },
            ),
          );
        return;
      }
      const payload =
        'json' in reply ? reply.json : chatCompletion(body?.model ?? 'fake-model', reply.content);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export function chatCompletion(model: string, content: string) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** An embeddings response body for the given vectors. */
export function embeddingsResponse(model: string, vectors: number[][]) {
  return {
    object: 'list',
    model,
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    usage: { prompt_tokens: 1, total_tokens: 1 },
  };
}
