import type { MiddlewareHandler } from 'hono';
import { EngramError } from '../core/errors.js';
import type { KeyService, Principal } from '../engine/keys.js';
import type { KeyLimiter } from './rate-limit.js';

export interface AuthOptions {
  keys: KeyService;
  cacheMs: number;
  limiter: KeyLimiter;
}

/**
 * Bearer-key authentication for every route it is mounted on: 401 for a missing or
 * unknown key, 403 for a key of the other API version than the path, 429 past the
 * per-key rate, 503 with Retry-After when the key store cannot be reached.
 */
export function bearerAuth(opts: AuthOptions): MiddlewareHandler {
  const cache = new Map<string, { principal: Principal; until: number }>();
  return async (c, next) => {
    const header = c.req.header('authorization') ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) {
      await drainBody(c.req.raw);
      c.header('WWW-Authenticate', 'Bearer');
      throw new EngramError('Unauthorized', 'missing bearer API key: send Authorization: Bearer <key>');
    }
    const presented = m[1]!;
    let principal = cache.get(presented);
    if (!principal || principal.until < Date.now()) {
      const found = await opts.keys.verify(presented);
      if (!found) {
        cache.delete(presented);
        await drainBody(c.req.raw);
        c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
        throw new EngramError('Unauthorized', 'invalid or revoked API key');
      }
      principal = { principal: found, until: Date.now() + opts.cacheMs };
      if (opts.cacheMs > 0) cache.set(presented, principal);
      if (cache.size > 10_000) cache.clear();
    }
    const p = principal.principal;
    const pathVersion = /^\/api\/(v[12])\//.exec(c.req.path)?.[1];
    if (pathVersion && pathVersion !== p.apiVersion) {
      await drainBody(c.req.raw);
      throw new EngramError(
        'Forbidden',
        `this key is for the ${p.apiVersion} API and cannot call ${pathVersion} routes`,
      );
    }
    const wait = await opts.limiter.take(p.tenantId, p.keyId);
    if (wait > 0)
      throw new EngramError('RateLimited', 'rate limit exceeded for this API key', { retryAfter: wait });
    c.set('principal', p);
    await next();
  };
}

/**
 * Reads (and discards) the request body before a refusal, up to the body limit the
 * request stream already enforces: answering while the client is still sending makes
 * Node close the connection, and the client sees a socket error instead of the answer.
 */
export async function drainBody(req: Request): Promise<void> {
  if (!req.body || req.bodyUsed) return;
  try {
    const reader = req.body.getReader();
    while (!(await reader.read()).done) {}
  } catch {
    // over the body limit or the client went away: nothing more to read
  }
}
