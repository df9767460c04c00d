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
      client.on('data', (d: Buffer) => {
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
