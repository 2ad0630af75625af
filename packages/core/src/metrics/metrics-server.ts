import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, pino } from 'pino';
import {
  HttpListener,
  parseTarget,
  rejectUnlessGet,
  type TlsSource,
  writeText,
} from '../http/http-listener.js';
import type { MetricsRequestAuthorizer } from './metrics-authorizer.js';
import type { MetricsRegistry } from './metrics-registry.js';

/** Port the metrics server listens on by default, as controller-runtime's `:8080`. */
export const defaultMetricsPort = 8080;

/** Options of a {@link MetricsServer}; only `metrics` is required. */
export interface MetricsServerOptions {
  /** The registry whose metrics are served. */
  metrics: MetricsRegistry;
  /** TCP port; 0 picks a free one (read it from {@link MetricsServer.port}). Default 8080. */
  port?: number;
  /** Address to listen on. Default: all interfaces. */
  host?: string;
  /** How long `stop` lets in-flight scrapes finish, in ms. Default 5 000. */
  shutdownGracePeriodMs?: number;
  /** Where failures are logged. Default: a silent pino logger. */
  logger?: Logger;
  /**
   * Serve HTTPS with this certificate (`selfSignedServingCertificate`,
   * `certDirServingCertificate`). Default: plain HTTP.
   */
  tls?: TlsSource;
  /**
   * Decides every scrape of `/metrics` before it is served (`DelegatingMetricsAuthorizer`:
   * TokenReview and SubjectAccessReview). Default: anyone who reaches the port may read.
   */
  authorizer?: MetricsRequestAuthorizer;
}

/**
 * The server of Prometheus scrapes: `GET /metrics` answers 200 with the registry's text
 * exposition and content type `text/plain; version=0.0.4; charset=utf-8`. Other paths get
 * 404, other methods 405, and a failure to gather the metrics 500 with the error. With
 * `tls` it serves HTTPS (TLS 1.2 or later), with `authorizer` every scrape is decided first
 * and refused with its status (401, 403, or 500 when the API server cannot be asked) and the
 * reason as the body. controller-runtime's `SecureServing` with
 * `filters.WithAuthenticationAndAuthorization` is both. A stopped server cannot be started
 * again.
 */
export class MetricsServer {
  readonly #metrics: MetricsRegistry;
  readonly #listener: HttpListener;
  readonly #logger: Logger;
  readonly #authorizer: MetricsRequestAuthorizer | undefined;

  constructor(options: MetricsServerOptions) {
    this.#metrics = options.metrics;
    this.#authorizer = options.authorizer;
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.#listener = new HttpListener({
      label: 'metrics server',
      className: 'MetricsServer',
      port: options.port ?? defaultMetricsPort,
      host: options.host,
      shutdownGracePeriodMs: options.shutdownGracePeriodMs ?? 5_000,
      logger: this.#logger,
      ...(options.tls ? { tls: options.tls } : {}),
      handle: (request, response) => this.#handle(request, response),
    });
  }

  /** The port the server is bound to while started (useful with `port: 0`), else `undefined`. */
  get port(): number | undefined {
    return this.#listener.port;
  }

  /** True from the moment `start` resolved until `stop` is called. */
  get started(): boolean {
    return this.#listener.started;
  }

  /**
   * Listens; resolves once connections are accepted. Rejects with Node's error if listening
   * fails (the server can then be started again), and with a {@link HealthServerError} if
   * already started (`AlreadyStarted`) or stopped (`Stopped`).
   */
  start(): Promise<void> {
    return this.#listener.start();
  }

  /** Stops accepting connections; resolves once every connection is closed. Idempotent. */
  stop(): Promise<void> {
    return this.#listener.stop();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { pathname } = parseTarget(request.url);
    if (pathname !== '/metrics') {
      writeText(
        response,
        404,
        `404 page not found: ${pathname} is not served here; use /metrics\n`,
      );
      return;
    }
    if (rejectUnlessGet(request, response)) return;
    if (this.#authorizer !== undefined) {
      const access = await this.#authorizer.authorize({
        authorization: request.headers.authorization,
        path: pathname,
        method: request.method ?? 'GET',
      });
      if (!access.allowed) {
        if (access.status === 500)
          this.#logger.error({ reason: access.reason }, 'cannot authorize a scrape');
        else this.#logger.debug({ status: access.status, reason: access.reason }, 'scrape refused');
        const title = { 401: 'Unauthorized', 403: 'Forbidden', 500: 'Internal Server Error' }[
          access.status
        ];
        writeText(response, access.status, `${title}: ${access.reason}\n`);
        return;
      }
    }
    let body: string;
    try {
      body = await this.#metrics.metrics();
    } catch (error) {
      this.#logger.error({ err: error }, 'gathering metrics failed');
      writeText(
        response,
        500,
        `error gathering metrics: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return;
    }
    writeText(response, 200, body, { 'content-type': this.#metrics.contentType });
  }
}
