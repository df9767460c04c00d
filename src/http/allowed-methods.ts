import type { Hono } from 'hono';
import { escapeRegExp } from '../core/regexp.js';

/**
 * The methods the app's routes answer for a path, derived from the mounted route table
 * (so routes added later are covered): a request that matches a route's path but not its
 * method is answered 405 with these in `Allow`, not 404. Catch-all middleware (method ALL)
 * is not a route.
 */
export function allowedMethods(app: { routes: Hono['routes'] }): (path: string) => string[] {
  let table: { re: RegExp; method: string }[] | undefined;
  return (path) => {
    table ??= app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ re: pathPattern(r.path), method: r.method.toUpperCase() }));
    const methods = new Set(table.filter((r) => r.re.test(path)).map((r) => r.method));
    if (methods.has('GET')) methods.add('HEAD');
    return [...methods].sort();
  };
}

function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) => {
      if (seg === '*') return '.*';
      if (seg.startsWith(':')) return '[^/]+';
      return escapeRegExp(seg);
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}
