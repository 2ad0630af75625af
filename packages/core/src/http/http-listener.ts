import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { HealthServerError } from '../errors/health-server-error.js';

/** A PEM certificate (chain) and its PEM private key. */
export interface TlsKeyPair {
  readonly cert: string;
  readonly key: string;
}

/**
 * Where an HTTPS {@link HttpListener} gets its serving certificate: `start` resolves with the
 * first pair and may later call `update` with a replacement (new connections use it); `stop`
 * ends whatever watching `start` began. `start` rejecting fails the listener's start.
 */
export interface TlsSource {
  start(update: (pair: TlsKeyPair) => void): Promise<TlsKeyPair>;
  stop(): void;
}

/** How an {@link HttpListener} listens. */
export interface HttpListenerOptions {
  /** What the server is called in errors and logs, e.g. `health probe server`. */
  readonly label: string;
  /** Class name to create anew in the `Stopped` error message. */
  readonly className: string;
  readonly port: number;
  readonly host: string | undefined;
  readonly shutdownGracePeriodMs: number;
  readonly logger: Logger;
  /** Serve HTTPS (TLS 1.2 or later) with this source's certificate; absent: plain HTTP. */
  readonly tls?: TlsSource;
  /** Serves one request; must not throw (errors are answered with 500 by the caller). */
  readonly handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
}

type State = 'new' | 'starting' | 'started' | 'stopped';

/**
 * The lifecycle shared by the HTTP(S) servers of a manager (probes, metrics): `start`
 * once, `stop` any number of times, never restart; requests that fail unexpectedly are
 * answered 500 and logged, never crash the process.
 *
 * @internal
 */
export class HttpListener {
  readonly #options: HttpListenerOptions;
  readonly #sockets = new Set<Socket>();
  #server: Server | HttpsServer | undefined;
  #state: State = 'new';
  #starting: Promise<void> | undefined;

  constructor(options: HttpListenerOptions) {
    this.#options = options;
  }

  /** The bound port while started (useful with port 0), else `undefined`. */
  get port(): number | undefined {
    const address = this.#server?.address();
    return typeof address === 'object' && address !== null ? address.port : undefined;
  }

  /** True from the moment `start` resolved until `stop` is called. */
  get started(): boolean {
    return this.#state === 'started';
  }

  start(): Promise<void> {
    const { label, className } = this.#options;
    if (this.#state === 'starting' || this.#state === 'started') {
      return Promise.reject(
        new HealthServerError('AlreadyStarted', `${label} is already started: call start() once`),
      );
    }
    if (this.#state === 'stopped') {
      return Promise.reject(
        new HealthServerError(
          'Stopped',
          `${label} has been stopped and cannot be restarted: create a new ${className}`,
        ),
      );
    }
    this.#state = 'starting';
    this.#starting = this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    const { label, logger, port, host, tls } = this.#options;
    const serve = (request: IncomingMessage, response: ServerResponse) => {
      void this.#serve(request, response);
    };
    let server: Server | HttpsServer;
    if (tls === undefined) {
      server = createServer(serve);
    } else {
      let https: HttpsServer | undefined;
      let first: TlsKeyPair;
      try {
        first = await tls.start((pair) => https?.setSecureContext({ ...pair }));
      } catch (error) {
        if (this.#state === 'starting') this.#state = 'new';
        throw error;
      }
      https = createHttpsServer({ ...first, minVersion: 'TLSv1.2' }, serve);
      https.on('tlsClientError', (error) =>
        logger.debug({ err: error }, `${label} TLS handshake failed`),
      );
      server = https;
    }
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    this.#server = server;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        const onListening = () => {
          server.off('error', reject);
          resolve();
        };
        if (host === undefined) server.listen(port, onListening);
        else server.listen(port, host, onListening);
      });
    } catch (error) {
      this.#server = undefined;
      server.close();
      tls?.stop();
      if (this.#state === 'starting') this.#state = 'new';
      throw error;
    }
    server.on('error', (error) => logger.error({ err: error }, `${label} error`));
    if (this.#state === 'starting') this.#state = 'started';
    logger.info({ port: this.port, host, secure: tls !== undefined }, `${label} listening`);
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      if (this.#state === 'stopped') response.setHeader('connection', 'close');
      await this.#options.handle(request, response);
    } catch (error) {
      this.#options.logger.error(
        { err: error, url: request.url },
        `${this.#options.label} request failed unexpectedly`,
      );
      if (!response.headersSent) {
        writeText(response, 500, `internal server error: ${messageOf(error)}\n`);
      } else {
        response.destroy();
      }
    }
  }

  /**
   * Stops listening, lets in-flight requests finish for up to the grace period, then cuts
   * the remaining connections. Resolves when every connection is closed. Harmless when
   * called again or before `start`.
   */
  async stop(): Promise<void> {
    if (this.#state === 'stopped') return;
    const starting = this.#starting;
    this.#state = 'stopped';
    if (starting !== undefined) await starting.catch(() => undefined);
    this.#options.tls?.stop();
    const server = this.#server;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.closeAllConnections();
        for (const socket of this.#sockets) socket.destroy();
      }, this.#options.shutdownGracePeriodMs);
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });
    this.#options.logger.info(`${this.#options.label} stopped`);
  }
}

/** Answers with a plain text body. */
export function writeText(
  response: ServerResponse,
  statusCode: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(statusCode, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

/** Answers 405 unless the method is GET or HEAD; returns whether it answered. */
export function rejectUnlessGet(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  writeText(response, 405, `method ${request.method} is not allowed: use GET\n`, {
    allow: 'GET, HEAD',
  });
  return true;
}

/** The path and query of a request target. */
export function parseTarget(url: string | undefined): URL {
  return new URL(url ?? '/', 'http://localhost');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
