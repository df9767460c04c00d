import type { IncomingMessage } from 'node:http';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { asArrivingNow } from '../core/arrival.js';
import { EngramError, toEngramError } from '../core/errors.js';
import { newRequestId } from '../core/ids.js';
import type { Logger } from '../core/log.js';
import type { Principal } from '../engine/keys.js';
import { RateBuckets } from '../engine/rate-buckets.js';
import type { Engram } from '../engram.js';
import { mcpHttpHandler } from '../mcp/http.js';
import { allowedMethods } from './allowed-methods.js';
import { bearerAuth, drainBody } from './auth.js';
import { sendError } from './errors.js';
import { observeRequests } from './observe.js';
import { openApiDocument } from './openapi.js';
import { RateLimiter } from './rate-limit.js';
import { registerRoutes } from './routes/index.js';
import { localUploadRoute } from './routes/objects.js';
import { inspectorRoutes } from './ui.js';

export type HttpEnv = { Variables: { requestId: string; principal: Principal } };

export interface HttpOptions {
  maxBodyBytes: number;
  authCacheMs: number;
  rateLimitRps: number;
  rateLimitBurst: number;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The REST face of engram. Order matters: request id, retired paths, health (no auth),
 * body limit, bearer auth, routes; errors from any layer leave through onError in the
 * envelope of the route family.
 */
export function createHttpApp(engram: Engram, opts: HttpOptions, log: Logger): Hono<HttpEnv> {
  const app = new Hono<HttpEnv>();

  // Each request is work arriving now: the embedded store serves its statements in that order.
  app.use('*', (_c, next) => asArrivingNow(next));
  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const id = incoming && REQUEST_ID_RE.test(incoming) ? incoming : newRequestId();
    c.set('requestId', id);
    c.header('X-Request-Id', id);
    await next();
    // Answers built as plain Responses (the MCP transport's) do not carry c.header()s.
    if (!c.res.headers.has('X-Request-Id')) c.res.headers.set('X-Request-Id', id);
  });
  app.use('*', observeRequests(engram.metrics, log, engram.config.accessLog));

  app.all('/api/v0/*', () => {
    throw new EngramError('Gone', 'the v0 API is retired: use /api/v2');
  });

  app.get('/health', async (c) => {
    try {
      await engram.db.query('SELECT 1');
      return c.json({ status: 'ok', driver: engram.db.driver, version: engram.version });
    } catch (err) {
      log.warn('health check failed', { err });
      c.header('Retry-After', '5');
      return c.json({ status: 'unavailable', driver: engram.db.driver, version: engram.version }, 503);
    }
  });

  // Public, for Prometheus: no tenant data, routes as patterns (ENGRAM_METRICS=false hides it).
  if (engram.config.metrics)
    app.get('/metrics', async (c) => {
      c.header('Content-Type', engram.metrics.contentType);
      return c.body(await engram.metrics.text());
    });

  // Public: the API's description, derived from the routes mounted below (built on first use).
  let openapi: object | undefined;
  app.get('/openapi.json', (c) => {
    openapi ??= openApiDocument(app, engram.version);
    return c.json(openapi);
  });

  // Public: the web inspector's page and assets (the page asks for a key and calls the API).
  inspectorRoutes(app);

  // Uploads to the local object store: signed, not keyed, and as large as their signature allows.
  if (engram.objects.takesUploads) localUploadRoute(app, engram);

  app.use(
    '*',
    bodyLimit({
      maxSize: opts.maxBodyBytes,
      onError: () => {
        throw new EngramError('PayloadTooLarge', `request body exceeds ${opts.maxBodyBytes} bytes`);
      },
    }),
  );

  app.use(
    '*',
    bearerAuth({
      keys: engram.keys,
      cacheMs: opts.authCacheMs,
      limiter:
        engram.db.driver === 'postgres'
          ? new RateBuckets(engram.db, opts.rateLimitRps, opts.rateLimitBurst)
          : new RateLimiter(opts.rateLimitRps, opts.rateLimitBurst),
    }),
  );

  // The Streamable HTTP methods only, so any other gets 405 with Allow like every route.
  app.on(['GET', 'POST', 'DELETE'], '/mcp', mcpHttpHandler(engram));
  registerRoutes(app, engram);

  const methodsFor = allowedMethods(app);
  // Every refusal reads the request body first (drainBody): answering while the client is
  // still sending makes the connection close under it.
  app.notFound(async (c) => {
    await drainBody(c.req.raw);
    const allow = methodsFor(c.req.path);
    if (allow.length === 0)
      return sendError(c, new EngramError('NotFound', `no route for ${c.req.method} ${c.req.path}`));
    c.header('Allow', allow.join(', '));
    return sendError(
      c,
      new EngramError(
        'MethodNotAllowed',
        `${c.req.method} is not allowed on ${c.req.path}: use ${allow.join(', ')}`,
      ),
    );
  });

  app.onError(async (err, c) => {
    if (!clientWentAway(c, err)) await drainBody(c.req.raw);
    if (clientWentAway(c, err)) {
      // Nobody reads this answer and nothing failed on our side: not an error to log.
      log.debug('client disconnected mid-request', { request_id: c.get('requestId'), path: c.req.path });
      return sendError(c, new EngramError('BadRequest', 'the client closed the connection'));
    }
    const e = toEngramError(err);
    if (e.status >= 500)
      log.error('request failed', { request_id: c.get('requestId'), path: c.req.path, err });
    return sendError(c, e);
  });

  return app;
}

/**
 * The request failed because its client closed the connection (body read aborted). An
 * ECONNRESET of the database's connection (PostgreSQL stopped under a statement) is not:
 * the client's socket is still open, and that is a 503. (A request whose body was read in
 * full is `destroyed` by Node at once, so that alone says nothing about the client.)
 */
function clientWentAway(c: Context<HttpEnv>, err: unknown): boolean {
  if (c.req.raw.signal.aborted) return true;
  if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') return false;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return false;
  return incoming.socket?.destroyed === true || (incoming.destroyed && !incoming.complete);
}
