/**
 * The postgres.js target of a connection URL written as libpq reads it. libpq takes `host`
 * and `port` as query parameters too, and a `host` that is a directory names the server's
 * Unix-domain socket there (`postgresql://engram@/engram?host=/var/run/postgresql`, the
 * usual way to reach a server on the same machine, with peer authentication). postgres.js
 * would send those parameters to the server as settings, which it refuses, so they become
 * postgres.js's own `host` and `port` options here, and the rest of the URL goes as it is.
 * A bad port throws; config.ts checks DATABASE_URL with this at start.
 */
export interface ConnectionTarget {
  url: string;
  host?: string;
  port?: number;
}

export function connectionTarget(url: string): ConnectionTarget {
  const q = url.indexOf('?');
  if (q < 0) return { url };
  const params = new URLSearchParams(url.slice(q + 1));
  const host = params.get('host');
  const port = params.get('port');
  if (host === null && port === null) return { url };
  params.delete('host');
  params.delete('port');
  let base = url.slice(0, q);
  // postgres.js parses the URL as a WHATWG URL, which refuses credentials before an empty
  // host (`postgresql://engram@/engram`); the `host` parameter names the server instead.
  if (host) base = base.replace(/^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)(?=\/|$)/, '$1localhost');
  const rest = params.toString();
  const target: ConnectionTarget = { url: rest ? `${base}?${rest}` : base };
  if (host) target.host = host;
  if (port !== null) {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65535)
      throw new Error(`port must be a number from 1 to 65535, got "${port}"`);
    target.port = n;
  }
  return target;
}
