import http from 'node:http';
import https from 'node:https';
import { createGunzip } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import { BodyTooLongError } from '../errors/body-too-long-error.js';
import { BodyText, decodeBodyText } from './body-text.js';
import { BodyThread } from './body-thread.js';
import { cloneableRequestOptions } from './cloneable-request-options.js';

/** One HTTP request to the API server. */
export interface TransportRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute path, e.g. `/api/v1/namespaces/default/pods`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON-serialisable body, or an already serialised string. */
  body?: unknown;
  /** Content-Type of the body (default `application/json`). */
  contentType?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
  /** Milliseconds before the request is abandoned (default 60 s; 0 for none). */
  timeoutMs?: number;
  /**
   * The Accept header (default `application/json`), e.g.
   * `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1` for metadata only.
   */
  accept?: string;
  /**
   * Receive the answer on the transport's helper thread (see {@link BodyThread}), for large
   * bodies such as list pages: the event loop stays free meanwhile (to parse the previous
   * page, say). The first such request starts the thread and, like any request made before
   * the thread is ready or when it cannot be used, is sent from this thread as usual. The
   * answer is the same either way.
   */
  offThread?: boolean;
}

/** The answer: status, headers, and the body as text (parse with {@link parseBody}). */
export interface TransportResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Callbacks of a streaming watch. */
export interface WatchHandlers {
  /** Every complete line of the stream (one watch event, JSON), in order. */
  onLine(line: string): void;
  /** The stream ended: cleanly (`error` undefined) or not. Called exactly once. */
  onDone(error?: Error): void;
}

/** A running watch request. */
export interface WatchConnection {
  /** Ends the watch; `onDone` is called with no error. */
  close(): void;
}

/**
 * HTTP to the cluster of a kubeconfig's current context, as its current user: client-node's
 * KubeConfig applies tokens (refreshing exec and OIDC credentials), client certificates and
 * the CA to every request. Connections are kept alive and reused.
 *
 * Guarantees: never rejects for an HTTP status (the caller reads `status`); rejects only
 * when the server cannot be reached, the request times out or is aborted.
 */
export class KubeTransport {
  readonly server: URL;
  private readonly agent: http.Agent;
  private readonly secure: boolean;
  /**
   * The kubeconfig that applies credentials to requests. For a plain-HTTP server it is a copy
   * whose current cluster is marked `skipTLSVerify` (meaningless over HTTP): client-node
   * otherwise refuses to build request options for an `http://` server.
   */
  private readonly authConfig: KubeConfig;
  /** Receives `offThread` answers; undefined when turned off. */
  private readonly bodyThread: BodyThread | undefined;
  /** Aborted by {@link close}: ends this transport's requests on the shared helper thread. */
  private readonly closing = new AbortController();
  /** Whether requests ask for gzip (`Accept-Encoding: gzip`); see the constructor. */
  readonly compression: boolean;

  /**
   * @param options.maxSockets connections kept to the server at most (default 64).
   * @param options.offThreadBodies whether `offThread` requests may use the process's
   *   helper thread ({@link BodyThread.shared}; default true); when false they are sent like
   *   any other.
   * @param options.compression whether to ask for gzip (`Accept-Encoding: gzip`): `'auto'`
   *   (the default) unless the server is on a loopback address, `true` always (as client-go,
   *   client-node and fluent), `false` never. kube-apiserver then gzips responses larger
   *   than 128 KiB (list pages) and WatchList streams (1.37), the latter for the watch's
   *   whole life, so every later event is inflated too; gzipped answers are decompressed
   *   wherever they are received, so every caller sees the same text either way. Over a
   *   network gzip saves about 15× the bytes of a sync; on loopback, where bytes cost
   *   nothing, tools/bench measured it costing time (a cold sync 1.04-1.21× slower in 6 of 8
   *   cells on a quiet machine) and CPU per watch event, hence `'auto'`.
   */
  constructor(
    private readonly kubeConfig: KubeConfig,
    options: {
      maxSockets?: number;
      offThreadBodies?: boolean;
      compression?: boolean | 'auto';
    } = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (cluster === null) {
      throw new Error(
        'the kubeconfig has no current cluster: set current-context (kubectl config use-context NAME) or pass a kubeconfig with one',
      );
    }
    this.server = new URL(cluster.server);
    this.secure = this.server.protocol === 'https:';
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64 };
    this.agent = this.secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    this.authConfig = this.secure ? kubeConfig : plainHttpAuthConfig(kubeConfig, cluster.name);
    this.bodyThread = options.offThreadBodies === false ? undefined : BodyThread.shared();
    const compression = options.compression ?? 'auto';
    this.compression = compression === 'auto' ? !isLoopback(this.server.hostname) : compression;
  }

  /** The user name of the current context (for error messages). */
  get userName(): string {
    return this.kubeConfig.getCurrentUser()?.name ?? 'unknown';
  }

  private url(path: string, query: TransportRequest['query']): URL {
    const base = this.server.pathname.replace(/\/$/, '');
    const url = new URL(`${base}${path}`, this.server);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  private async options(
    method: string,
    accept = 'application/json',
  ): Promise<https.RequestOptions> {
    const options: https.RequestOptions = {
      method,
      headers: {
        Accept: accept,
        'User-Agent': 'ops-core',
        ...(this.compression ? { 'Accept-Encoding': 'gzip' } : {}),
      },
    };
    await this.authConfig.applyToHTTPSOptions(options);
    options.agent = this.agent;
    return options;
  }

  /** Sends one request and reads the whole answer. */
  async request(request: TransportRequest): Promise<TransportResponse> {
    const url = this.url(request.path, request.query);
    const options = await this.options(request.method, request.accept);
    const payload =
      request.body === undefined
        ? undefined
        : typeof request.body === 'string'
          ? request.body
          : JSON.stringify(request.body);
    if (payload !== undefined) {
      options.headers = {
        ...options.headers,
        'Content-Type': request.contentType ?? 'application/json',
        'Content-Length': Buffer.byteLength(payload),
      };
    }
    const timeoutMs = request.timeoutMs ?? 60_000;
    const timeoutMessage = `${request.method} ${url.pathname} timed out after ${timeoutMs} ms`;
    const thread = request.offThread ? this.bodyThread : undefined;
    if (thread !== undefined) {
      thread.start();
      const cloneable = thread.isReady() ? cloneableRequestOptions(options) : undefined;
      if (cloneable !== undefined) {
        const answer = await thread.request({
          url: url.href,
          options: cloneable,
          ...(payload === undefined ? {} : { payload }),
          timeoutMs,
          timeoutMessage,
          signal: request.signal
            ? AbortSignal.any([request.signal, this.closing.signal])
            : this.closing.signal,
        });
        let text: string;
        try {
          text = decodeBodyText(answer.body, answer.ascii);
        } catch (error) {
          throw bodyError(request.method, url, error);
        }
        return { status: answer.status, headers: answer.headers, text };
      }
    }
    const transport = this.secure ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        url,
        { ...options, ...(request.signal ? { signal: request.signal } : {}) },
        (res) => {
          const body = new BodyText();
          const source = decoded(res);
          source.on('data', (chunk: Buffer) => body.push(chunk));
          res.on('error', reject);
          if (source !== res) source.on('error', reject);
          source.on('end', () => {
            let text: string;
            try {
              text = body.text();
            } catch (error) {
              reject(bodyError(request.method, url, error));
              return;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
          });
        },
      );
      if (timeoutMs > 0) {
        req.setTimeout(timeoutMs, () => req.destroy(new Error(timeoutMessage)));
      }
      req.on('error', reject);
      req.end(payload);
    });
  }

  /**
   * Opens a watch (or any streaming GET) and hands over each line as it arrives. A non-200
   * answer ends the stream with an error carrying the status and body. `accept` is the
   * Accept header (default `application/json`).
   */
  async watch(
    path: string,
    query: TransportRequest['query'],
    handlers: WatchHandlers,
    accept?: string,
  ): Promise<WatchConnection> {
    const url = this.url(path, query);
    const options = await this.options('GET', accept);
    const transport = this.secure ? https : http;
    let done = false;
    let closed = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      handlers.onDone(closed ? undefined : error);
    };
    const req = transport.request(url, options, (res) => {
      const source = decoded(res);
      if (source !== res) source.on('error', (error) => finish(error));
      if (res.statusCode !== 200) {
        const chunks: Buffer[] = [];
        source.on('data', (chunk: Buffer) => chunks.push(chunk));
        source.on('end', () => {
          const error = new Error(
            `watch ${url.pathname} answered ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8')}`,
          );
          (error as Error & { status?: number }).status = res.statusCode;
          finish(error);
        });
        return;
      }
      source.setEncoding('utf8');
      let buffer = '';
      source.on('data', (chunk: string) => {
        buffer += chunk;
        let start = 0;
        for (
          let newline = buffer.indexOf('\n');
          newline >= 0;
          newline = buffer.indexOf('\n', start)
        ) {
          if (newline > start) handlers.onLine(buffer.slice(start, newline));
          start = newline + 1;
        }
        buffer = start === 0 ? buffer : buffer.slice(start);
      });
      source.on('end', () => finish());
      res.on('error', (error) => finish(error));
      // A complete gzipped stream ends when gunzip has handed over its last lines.
      res.on('close', () => {
        if (!res.complete) finish(new Error(`watch ${url.pathname} connection closed`));
        else if (source === res) finish();
      });
    });
    req.on('error', (error) => finish(error));
    req.end();
    return {
      close: () => {
        closed = true;
        req.destroy();
        finish();
      },
    };
  }

  /**
   * Closes kept-alive connections and aborts this transport's requests in flight on the
   * helper thread (which, shared and idle, does not keep the process alive).
   */
  close(): void {
    this.agent.destroy();
    this.closing.abort();
  }
}

/** Whether `hostname` (of a URL) is a loopback address, where compression does not pay. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * The body stream of `res`: itself, or a gunzip of it when the server gzipped it (each chunk
 * is decompressed as it comes, so a watch's events are not held back).
 */
function decoded(res: http.IncomingMessage): NodeJS.ReadableStream & {
  setEncoding(encoding: BufferEncoding): unknown;
} {
  return res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
}

/** A copy of `kubeConfig` whose cluster `clusterName` skips TLS verification (see `authConfig`). */
function plainHttpAuthConfig(kubeConfig: KubeConfig, clusterName: string): KubeConfig {
  const copy = new KubeConfig();
  copy.loadFromOptions({
    clusters: kubeConfig
      .getClusters()
      .map((cluster) =>
        cluster.name === clusterName ? { ...cluster, skipTLSVerify: true } : cluster,
      ),
    users: kubeConfig.getUsers(),
    contexts: kubeConfig.getContexts(),
    currentContext: kubeConfig.getCurrentContext(),
  });
  return copy;
}

/** `error`, naming the request when it is a {@link BodyTooLongError}: the one to page. */
function bodyError(method: string, url: URL, error: unknown): unknown {
  return BodyTooLongError.isInstance(error)
    ? new BodyTooLongError(error.bytes, `${method} ${url.pathname}`, { cause: error.cause })
    : error;
}

/** Parses a JSON body; undefined for an empty one. */
export function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
