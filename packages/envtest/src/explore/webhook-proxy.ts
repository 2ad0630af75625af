import net from 'node:net';

/**
 * A TCP proxy in front of an explored operator's webhook server: the webhook configurations
 * point at it (`https://127.0.0.1:<port>/...`, a fixed port for the whole run), and it passes
 * the bytes through (TLS is the webhook server's own, end to end) to the webhook server of
 * the incarnation now running ({@link target}), whose port changes with every restart. It
 * can make the webhook unreachable (every connection reset at once, as a connection refused
 * or a Service without endpoints) or slow (each connection held before it is passed on).
 *
 * An admission request arriving while no webhook server runs (the operator crashed) is
 * reset too, as a Service whose only endpoint is down.
 */
export class WebhookProxy {
  private targetPort: number | undefined;
  private downUntil = 0;
  private slow: { delayMs: number; until: number } | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** Connections reset because the webhook was down or had no server; for the report. */
  refused = 0;

  private constructor(private readonly server: net.Server) {}

  /** Starts the proxy on a free port of the loopback address. */
  static async start(): Promise<WebhookProxy> {
    const server = net.createServer();
    const proxy = new WebhookProxy(server);
    server.on('connection', (socket) => proxy.accept(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The port the webhook configurations point at. */
  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Passes connections on to the webhook server listening on `port`; `undefined`: none runs. */
  target(port: number | undefined): void {
    this.targetPort = port;
  }

  /** Every connection for the next `ms` is reset before it reaches the webhook server. */
  down(ms: number): void {
    this.downUntil = Math.max(this.downUntil, Date.now() + ms);
  }

  /** Each connection made in the next `windowMs` is passed on `delayMs` late. */
  delay(delayMs: number, windowMs: number): void {
    this.slow = { delayMs, until: Date.now() + windowMs };
  }

  /** Closes the proxy and every connection through it. */
  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (Date.now() < this.downUntil || this.targetPort === undefined) {
      this.refused++;
      socket.resetAndDestroy();
      return;
    }
    socket.pause();
    const delayMs = this.slow !== undefined && Date.now() < this.slow.until ? this.slow.delayMs : 0;
    const connect = () => {
      const port = this.targetPort;
      if (socket.destroyed) return;
      if (port === undefined) {
        this.refused++;
        socket.resetAndDestroy();
        return;
      }
      const upstream = net.connect(port, '127.0.0.1');
      this.sockets.add(upstream);
      upstream.on('close', () => {
        this.sockets.delete(upstream);
        socket.destroy();
      });
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      socket.pipe(upstream);
      upstream.pipe(socket);
      socket.resume();
    };
    if (delayMs === 0) connect();
    else setTimeout(connect, delayMs).unref();
  }
}
