import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of a database, so a test can make the database
 * "unreachable" (stop: drop every connection and refuse new ones) and bring it back.
 */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** The sockets of the proxy's clients (engram's side). */
  private readonly clients = new Set<Socket>();
  private holding = false;
  private resetArmed = false;
  /** Bytes from the clients kept back while holding. */
  held = 0;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<number> {
    this.server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      this.clients.add(client);
      client.on('close', () => this.clients.delete(client));
      let startedStatements = false;
      client.on('data', (d: Buffer) => {
        // the first Parse ('P') or Query ('Q') message a connection sends, once its startup
        // and password messages are through
        const statement = !startedStatements && (d[0] === 0x50 || d[0] === 0x51);
        if (statement) startedStatements = true;
        if (statement && this.resetArmed) {
          this.resetArmed = false;
          client.resetAndDestroy();
          upstream.destroy();
          return;
        }
        if (this.holding) this.held += d.length;
        else upstream.write(d);
      });
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  /** From now on, what the clients send never reaches the database (their statements hang). */
  hold(): void {
    this.holding = true;
  }

  /**
   * The next connection to send its first statement is reset (TCP RST) instead, before the
   * statement reaches the database: whatever a client does first on a new connection fails
   * with ECONNRESET.
   */
  resetNextFirstStatement(): void {
    this.resetArmed = true;
  }

  /** Resets every client connection (TCP RST: ECONNRESET on engram's side) and stops holding. */
  resetClients(): void {
    for (const s of this.clients) s.resetAndDestroy();
    this.holding = false;
    this.held = 0;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}

/** A started proxy in front of the database of `url`, and the URL that reaches it through the proxy. */
export async function proxied(url: string): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = new TcpProxy(target.hostname, Number(target.port));
  await proxy.start();
  target.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: target.toString() };
}
