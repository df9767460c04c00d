import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { Logger } from '../core/log.js';
import type { Metrics } from '../observability/metrics.js';

/**
 * Times every request into the metrics, labelled by route pattern (never the raw path, so
 * ids do not multiply series; paths no route matches count as `unmatched`), and writes one
 * access-log line per request when asked to.
 */
export function observeRequests(metrics: Metrics, log: Logger, accessLog: boolean): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    const seconds = (performance.now() - start) / 1000;
    const pattern = routePath(c, -1);
    const route = !pattern || pattern.includes('*') ? 'unmatched' : pattern;
    metrics.observeHttp(c.req.method, route, c.res.status, seconds);
    if (accessLog)
      log.info('request', {
        method: c.req.method,
        path: c.req.path,
        route,
        status: c.res.status,
        ms: Math.round(seconds * 10_000) / 10,
        request_id: c.get('requestId') as string,
      });
  };
}
