import { createServer, request as httpRequest, type Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A plain HTTP load balancer on loopback, as an operator would put in front of engram:
 * each request goes to the next backend in turn (no sticky routing, no look at headers),
 * bodies and event streams are piped both ways, and a backend that refuses the connection
 * is skipped for the next one (like nginx's `proxy_next_upstream error`). It records which
 * backend served each request.
 */
export class RoundRobinProxy {
  private server: Server | undefined;
  private next = 0;
  private readonly sockets = new Set<Socket>();
  /** Backend index per request, in arrival order, with method and path. */
  readonly served: {
    backend: number;
    method: string;
    path: string;
    accept: string;
    session: string;
    lastEventId: string;
  }[] = [];
  url = '';

  constructor(readonly backends: string[]) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const first = this.next++ % this.backends.length;
        const attempt = (tries: number) => {
          const backend = (first + tries) % this.backends.length;
          const target = new URL(req.url ?? '/', this.backends[backend]);
          const up = httpRequest(
            target,
            { method: req.method, headers: { ...req.headers, host: target.host }, agent: false },
            (upRes) => {
              this.served.push({
                backend,
                method: req.method ?? '',
                path: req.url ?? '',
                accept: String(req.headers.accept ?? ''),
                session: String(req.headers['mcp-session-id'] ?? ''),
                lastEventId: String(req.headers['last-event-id'] ?? ''),
              });
              res.writeHead(upRes.statusCode ?? 502, upRes.headers);
              res.flushHeaders();
              upRes.pipe(res);
              upRes.on('error', () => res.destroy());
            },
          );
          up.on('error', (err: NodeJS.ErrnoException) => {
            if (res.headersSent) return res.destroy();
            if (err.code === 'ECONNREFUSED' && tries + 1 < this.backends.length) return attempt(tries + 1);
            res.writeHead(502, { 'content-type': 'text/plain' }).end(`bad gateway: ${err.message}`);
          });
          res.on('close', () => up.destroy());
          up.end(body);
        };
        attempt(0);
      });
    });
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this;
  }

  /** The backends that served requests matching the filter, in order. */
  backendsFor(filter: (r: RoundRobinProxy['served'][number]) => boolean): number[] {
    return this.served.filter(filter).map((r) => r.backend);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
