import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SecureVersion } from 'node:tls';
import { type Logger, pino } from 'pino';
import { type ConversionDeclaration, isConversionDeclaration } from '../crd/conversion.js';
import { WebhookServerError } from '../errors/webhook-server-error.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { CertWatcher, type ServingCertificate } from '../tls/cert-watcher.js';
import type { AdmissionHandler } from './admission-handler.js';
import { answerWebhookRequest, type WebhookRoutes } from './answer-webhook-request.js';
import { ConversionWebhook } from './conversion-webhook.js';
import { requestPath } from './request-path.js';
import type { WebhookDeclaration } from './webhook-declaration.js';

/** Largest request body accepted by default: 7 MiB, like kube-apiserver's and controller-runtime's limit. */
export const defaultMaxRequestBytes = 7 * 1024 * 1024;

/** Port the webhook server listens on by default, as controller-runtime's. */
export const defaultWebhookPort = 9443;

/**
 * Where the serving certificate is looked for by default:
 * `<os.tmpdir()>/k8s-webhook-server/serving-certs`, controller-runtime's default.
 */
export function defaultCertDir(): string {
  return join(tmpdir(), 'k8s-webhook-server', 'serving-certs');
}

/** Options of a {@link WebhookServer}. Every one has a default. */
export interface WebhookServerOptions {
  /** TCP port; 0 picks a free one (read it from {@link WebhookServer.port}). Default 9443. */
  port?: number;
  /** Address to listen on. Default: all interfaces. */
  host?: string;
  /** Directory holding the serving certificate and key. Default {@link defaultCertDir}. */
  certDir?: string;
  /** File name of the PEM certificate in `certDir`. Default `tls.crt`. */
  certName?: string;
  /** File name of the PEM private key in `certDir`. Default `tls.key`. */
  keyName?: string;
  /** How often the certificate files are re-read besides `fs.watch` events, in ms. Default 10 000. */
  certPollIntervalMs?: number;
  /** Whether to watch `certDir` with `fs.watch` (polling always runs). Default true. */
  watchCertDir?: boolean;
  /** Largest accepted request body in bytes; larger ones get 413. Default {@link defaultMaxRequestBytes}. */
  maxRequestBytes?: number;
  /** Oldest TLS version accepted. Default `TLSv1.2`, as controller-runtime. */
  tlsMinVersion?: SecureVersion;
  /**
   * How long `stop` lets in-flight requests finish before cutting their connections, in ms.
   * Default 5 000.
   */
  shutdownGracePeriodMs?: number;
  /** Where decisions and problems are logged. Default: a silent pino logger. */
  logger?: Logger;
}

type State = 'new' | 'starting' | 'started' | 'stopped';

/**
 * The HTTPS server of admission and conversion webhooks (controller-runtime's
 * `webhook.Server`): receives `admission.k8s.io/v1` AdmissionReviews POSTed by
 * kube-apiserver, routes them by exact URL path to the {@link AdmissionHandler} registered
 * there, and answers with an AdmissionReview echoing the request's `uid`, always with HTTP
 * 200 once a review was read. At the path of the registered conversions (`/convert`) it
 * answers `apiextensions.k8s.io/v1` ConversionReviews the same way (see
 * {@link ConversionWebhook}: a failed conversion is a 200 with `result.status: Failure`
 * naming the object).
 *
 * Requests that are not reviews are answered with an HTTP error status and a review body (a
 * ConversionReview at a conversion path, else an AdmissionReview) whose message
 * (`response.status.message`, `response.result.message`) says what is wrong:
 * 404 unknown path, 405 a method other than POST, 415 a content type other than
 * `application/json` (415 is HTTP's status for exactly that; controller-runtime answers 400,
 * and kube-apiserver treats any non-200 the same way, as a failed call), 413 a body over
 * `maxRequestBytes`, 400 an empty body, malformed JSON, or JSON that is not a v1
 * AdmissionReview. A handler that throws is answered `allowed: false` with code 500.
 *
 * The serving certificate is read from `certDir` when starting and reloaded when the files
 * change (see {@link CertWatcher}); new TLS connections use the new certificate, a bad new
 * pair keeps the old one. Every decision is logged at info level with the request's uid,
 * operation, kind, namespace and name.
 *
 * Once given a metrics registry ({@link instrument}; the `Manager` gives its own), every
 * request to a registered path is recorded as controller-runtime records it:
 * `controller_runtime_webhook_requests_in_flight`, `controller_runtime_webhook_requests_total`
 * by HTTP status code and `controller_runtime_webhook_latency_seconds`, labelled
 * `webhook=<path>`. Requests to unknown paths are not (controller-runtime's mux answers them
 * before any webhook).
 *
 * Handlers can be registered before or after `start`. A stopped server cannot be started
 * again.
 */
export class WebhookServer {
  readonly #handlers = new Map<string, AdmissionHandler | ConversionWebhook>();
  readonly #logger: Logger;
  readonly #options: WebhookServerOptions;
  readonly #certWatcher: CertWatcher;
  readonly #routes: WebhookRoutes;
  readonly #sockets = new Set<Socket>();
  #metrics: MetricsRegistry | undefined;
  #server: Server | undefined;
  #state: State = 'new';
  #starting: Promise<void> | undefined;

  constructor(options: WebhookServerOptions = {}) {
    this.#options = options;
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.#routes = {
      handlers: this.#handlers,
      logger: this.#logger,
      maxRequestBytes: options.maxRequestBytes ?? defaultMaxRequestBytes,
      stopping: () => this.#state === 'stopped',
    };
    this.#certWatcher = new CertWatcher({
      certDir: options.certDir ?? defaultCertDir(),
      ...(options.certName === undefined ? {} : { certName: options.certName }),
      ...(options.keyName === undefined ? {} : { keyName: options.keyName }),
      ...(options.certPollIntervalMs === undefined
        ? {}
        : { pollIntervalMs: options.certPollIntervalMs }),
      ...(options.watchCertDir === undefined ? {} : { watch: options.watchCertDir }),
      logger: this.#logger,
      onChange: (certificate) => this.#useCertificate(certificate),
    });
  }

  /**
   * Serves `handler` at `path` (matched exactly against the URL path, query ignored), a
   * declared webhook's handler at its own path (`register(declaration)`, see
   * `defineWebhook`), so the path served is the one in the generated configuration, or a
   * kind's conversion (`register(conversion)`, see `defineConversion`) at `/convert`, which
   * serves the conversions of every kind registered.
   * Throws a {@link WebhookServerError}: `InvalidPath` if `path` does not start with `/` or
   * contains `?` or `#`, or no handler is given with a path; `DuplicatePath` if an admission
   * handler is already registered there, or the kind's conversion is.
   */
  register(declaration: WebhookDeclaration | ConversionDeclaration): this;
  register(path: string, handler: AdmissionHandler): this;
  register(
    target: string | WebhookDeclaration | ConversionDeclaration,
    handler?: AdmissionHandler,
  ): this {
    if (isConversionDeclaration(target)) {
      const existing = this.#handlers.get(target.path);
      if (existing instanceof ConversionWebhook) {
        existing.add(target);
        return this;
      }
      if (existing !== undefined) this.#duplicate(target.path);
      this.#handlers.set(target.path, new ConversionWebhook([target]));
      return this;
    }
    if (typeof target !== 'string') return this.register(target.path, target.handler);
    const path = target;
    if (handler === undefined) {
      throw new WebhookServerError(
        'InvalidPath',
        `no handler given for ${path}: call register(path, handler), or register(declaration) with a defineWebhook declaration`,
      );
    }
    if (!path.startsWith('/') || path.includes('?') || path.includes('#')) {
      throw new WebhookServerError(
        'InvalidPath',
        `webhook path ${JSON.stringify(path)} is not a URL path: start it with "/" and leave out any query or fragment, e.g. "/validate-apps-v1-deployment"`,
      );
    }
    if (this.#handlers.has(path)) this.#duplicate(path);
    this.#handlers.set(path, handler);
    this.#metrics?.webhook(path);
    return this;
  }

  /**
   * Records the metrics of every webhook path, registered before or after, in `metrics`
   * from now on (see the class comment); their series start at zero at once. Calling it
   * again with the same registry is harmless.
   *
   * @throws {WebhookServerError} `AlreadyInstrumented` when the server already records into
   *   another registry: one server's metrics belong to one manager.
   */
  instrument(metrics: MetricsRegistry): this {
    if (this.#metrics === metrics) return this;
    if (this.#metrics !== undefined) {
      throw new WebhookServerError(
        'AlreadyInstrumented',
        'the webhook server already records its metrics into another registry: give one WebhookServer to one Manager',
      );
    }
    this.#metrics = metrics;
    for (const path of this.#handlers.keys()) metrics.webhook(path);
    return this;
  }

  #duplicate(path: string): never {
    throw new WebhookServerError(
      'DuplicatePath',
      `a webhook is already registered at ${path}: register each path once, or combine the handlers into one`,
    );
  }

  /** The registered paths, in registration order. */
  get paths(): string[] {
    return [...this.#handlers.keys()];
  }

  /** The port the server is bound to while started (useful with `port: 0`), else `undefined`. */
  get port(): number | undefined {
    const address = this.#server?.address();
    return typeof address === 'object' && address !== null ? address.port : undefined;
  }

  /** True from the moment `start` resolved until `stop` is called. */
  get started(): boolean {
    return this.#state === 'started';
  }

  /** The serving certificate in use, `undefined` before `start`. */
  get certificate(): ServingCertificate | undefined {
    return this.#certWatcher.current;
  }

  /** The certificate watcher, for forcing a reload with `reload()`. */
  get certWatcher(): CertWatcher {
    return this.#certWatcher;
  }

  /** Whether the server is started, listening and has a certificate. */
  isReady(): boolean {
    return (
      this.#state === 'started' &&
      this.#server?.listening === true &&
      this.certificate !== undefined
    );
  }

  /**
   * A readiness check for the manager's `/readyz`: resolves when {@link isReady}, rejects
   * with a {@link WebhookServerError} (`NotReady`) saying why not. Bound to the server, so it
   * can be passed around as a function.
   */
  readonly readinessCheck = async (): Promise<void> => {
    if (this.isReady()) return;
    const why =
      this.#state === 'stopped'
        ? 'it has been stopped'
        : this.#state !== 'started'
          ? 'it has not been started (call start())'
          : this.certificate === undefined
            ? 'it has no serving certificate loaded'
            : 'it is not listening';
    throw new WebhookServerError('NotReady', `webhook server is not ready: ${why}`);
  };

  /**
   * Loads the certificate, starts watching it and listens. Resolves once the server accepts
   * connections. Rejects with a {@link WebhookCertificateError} if the certificate cannot be
   * loaded, with Node's error if listening fails (e.g. `EADDRINUSE`; the server can then be
   * started again), and with a {@link WebhookServerError} if already started
   * (`AlreadyStarted`) or stopped (`Stopped`).
   */
  start(): Promise<void> {
    if (this.#state === 'starting' || this.#state === 'started') {
      return Promise.reject(
        new WebhookServerError(
          'AlreadyStarted',
          'webhook server is already started: call start() once',
        ),
      );
    }
    if (this.#state === 'stopped') {
      return Promise.reject(
        new WebhookServerError(
          'Stopped',
          'webhook server has been stopped and cannot be restarted: create a new WebhookServer',
        ),
      );
    }
    this.#state = 'starting';
    this.#starting = this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    let server: Server | undefined;
    try {
      const certificate = await this.#certWatcher.start();
      server = createServer(
        {
          cert: certificate.cert,
          key: certificate.key,
          minVersion: this.#options.tlsMinVersion ?? 'TLSv1.2',
        },
        (request, response) => {
          void this.#handle(request, response);
        },
      );
      server.on('connection', (socket: Socket) => {
        this.#sockets.add(socket);
        socket.once('close', () => this.#sockets.delete(socket));
      });
      server.on('tlsClientError', (error) => {
        this.#logger.debug({ err: error }, 'webhook TLS handshake failed');
      });
      this.#server = server;
      await listen(server, this.#options.port ?? defaultWebhookPort, this.#options.host);
      server.on('error', (error) => this.#logger.error({ err: error }, 'webhook server error'));
    } catch (error) {
      this.#certWatcher.stop();
      this.#server = undefined;
      server?.close();
      if (this.#state === 'starting') this.#state = 'new';
      throw error;
    }
    if (this.#state === 'starting') this.#state = 'started';
    this.#logger.info(
      { port: this.port, host: this.#options.host, paths: this.paths },
      'webhook server listening',
    );
  }

  /**
   * Stops accepting connections, stops watching the certificate, lets in-flight requests
   * finish for up to `shutdownGracePeriodMs` (their responses close the connection), closes
   * idle keep-alive connections at once and cuts whatever remains after the grace period.
   * Resolves when every connection is closed. Calling it again, or before `start`, is
   * harmless; after `stop` the server cannot be started again.
   */
  async stop(): Promise<void> {
    if (this.#state === 'stopped') return;
    const starting = this.#starting;
    this.#state = 'stopped';
    if (starting !== undefined) await starting.catch(() => undefined);
    this.#certWatcher.stop();
    const server = this.#server;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.closeAllConnections();
        for (const socket of this.#sockets) socket.destroy();
      }, this.#options.shutdownGracePeriodMs ?? 5_000);
      server.close(() => {
        clearTimeout(timer);
        resolve();
      });
      server.closeIdleConnections();
    });
    this.#logger.info('webhook server stopped');
  }

  #useCertificate(certificate: ServingCertificate): void {
    const server = this.#server;
    if (server === undefined) return;
    try {
      server.setSecureContext({ cert: certificate.cert, key: certificate.key });
    } catch (error) {
      this.#logger.error(
        { err: error },
        'cannot use the new webhook serving certificate; keeping the previous one',
      );
    }
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = requestPath(request.url);
    const metrics =
      path !== undefined && this.#handlers.has(path) ? this.#metrics?.webhook(path) : undefined;
    if (metrics === undefined) return answerWebhookRequest(request, response, this.#routes);
    const started = performance.now();
    metrics.incInFlight();
    try {
      await answerWebhookRequest(request, response, this.#routes);
    } finally {
      metrics.decInFlight();
      metrics.observeRequest({
        code: response.statusCode,
        durationSeconds: (performance.now() - started) / 1000,
      });
    }
  }
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    if (host === undefined) server.listen(port, onListening);
    else server.listen(port, host, onListening);
  });
}
