import type http from 'node:http';
import type https from 'node:https';
import { Worker } from 'node:worker_threads';

/** One request for the helper thread: plain data only (it is copied to the thread). */
export interface BodyThreadRequest {
  /** The absolute URL. */
  url: string;
  /**
   * Options of `http(s).request` without `agent` or `signal`: method, headers and TLS
   * material (CA, client certificate and key, `rejectUnauthorized`, `servername`). Values
   * must be structured-cloneable (strings, numbers, booleans, Buffers, plain objects).
   */
  options: https.RequestOptions;
  /** The request body, if any. */
  payload?: string;
  /** Abandon the request after this many milliseconds (0 for never). */
  timeoutMs: number;
  /** The message of the error the request fails with when it times out. */
  timeoutMessage: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** A complete answer read on the helper thread. */
export interface BodyThreadResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The whole body, in memory handed over from the thread (not copied). */
  body: Buffer;
  /** Whether the body is pure ASCII (checked on the thread). */
  ascii: boolean;
}

interface Pending {
  resolve(response: BodyThreadResponse): void;
  reject(error: Error): void;
  cleanup(): void;
}

type ThreadReply =
  | {
      id: number;
      status: number;
      headers: http.IncomingHttpHeaders;
      body: Uint8Array;
      ascii: boolean;
    }
  | { id: number; error: string; code?: string };

/**
 * The helper thread's program (run with `eval`). Kept as text rather than a function's
 * source so that no build step, bundler or coverage tool can change it. It depends on
 * nothing but Node's built-in modules, reached through `process.getBuiltinModule` so that it
 * runs as a script or as a module alike. Each body is gathered into one fresh ArrayBuffer,
 * handed to the main thread without a copy.
 */
const threadSource = `
'use strict';
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const { isAscii } = process.getBuiltinModule('node:buffer');
const http = process.getBuiltinModule('node:http');
const https = process.getBuiltinModule('node:https');
const zlib = process.getBuiltinModule('node:zlib');
const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};
const inFlight = new Map();
parentPort.on('message', (message) => {
  if (message.type === 'abort') {
    const request = inFlight.get(message.id);
    if (request !== undefined) {
      inFlight.delete(message.id);
      request.destroy();
    }
    return;
  }
  const { id, url, options, payload, timeoutMs, timeoutMessage } = message;
  let settled = false;
  const fail = (error) => {
    if (settled) return;
    settled = true;
    inFlight.delete(id);
    parentPort.postMessage({ id, error: String(error && error.message), code: error && error.code });
  };
  let request;
  try {
    const protocol = new URL(url).protocol;
    const transport = protocol === 'https:' ? https : http;
    request = transport.request(url, { ...options, agent: agents[protocol] }, (response) => {
      const chunks = [];
      let length = 0;
      // A gzipped body (the request asked for it) is decompressed here, off the main thread.
      const source =
        response.headers['content-encoding'] === 'gzip' ? response.pipe(zlib.createGunzip()) : response;
      source.on('data', (chunk) => {
        chunks.push(chunk);
        length += chunk.length;
      });
      response.on('error', fail);
      if (source !== response) source.on('error', fail);
      source.on('end', () => {
        if (settled) return;
        settled = true;
        inFlight.delete(id);
        const body = new Uint8Array(length);
        let offset = 0;
        for (const chunk of chunks) {
          body.set(chunk, offset);
          offset += chunk.length;
        }
        parentPort.postMessage(
          { id, status: response.statusCode, headers: response.headers, body, ascii: isAscii(body) },
          [body.buffer],
        );
      });
    });
  } catch (error) {
    fail(error);
    return;
  }
  inFlight.set(id, request);
  if (timeoutMs > 0) request.setTimeout(timeoutMs, () => request.destroy(new Error(timeoutMessage)));
  request.on('error', fail);
  request.end(payload);
});
`;

/**
 * Reads HTTP answers on a helper thread, so that the event loop is free while a large body
 * arrives: an informer parses one list page while the next one is received, instead of
 * parsing and receiving in turn (measured with tools/bench: a cold sync of 10,000 Pods took
 * about a quarter less time).
 *
 * One thread serves every transport of the process ({@link shared}): a thread costs an
 * isolate's memory (about 10 MB resident) and warms up (compiles its HTTP code) as it works,
 * so sharing one keeps both costs to once per process. Its connections are its own, pooled per server and TLS
 * identity.
 *
 * Guarantees: the thread is started by {@link start}, never at construction or import;
 * until it is {@link isReady} (tens of milliseconds after start) callers should send
 * requests themselves. While requests are pending the thread keeps the process alive, as a
 * socket would; when idle it does not, so it never needs closing. If the thread fails,
 * pending requests are rejected and the thread is not restarted ({@link isReady} stays
 * false): callers fall back to their own requests. {@link close} ends the thread and rejects
 * what is pending.
 */
export class BodyThread {
  private static instance: BodyThread | undefined;

  /** The process-wide thread (created, not started, on first call). */
  static shared(): BodyThread {
    BodyThread.instance ??= new BodyThread();
    return BodyThread.instance;
  }

  private worker: Worker | undefined;
  private state: 'idle' | 'starting' | 'ready' | 'failed' | 'closed' = 'idle';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** Starts the thread in the background (idempotent). */
  start(): void {
    if (this.state !== 'idle') return;
    this.state = 'starting';
    // No execArgv: the thread needs none of the process's flags (loaders such as tsx would
    // only slow its start).
    const worker = new Worker(threadSource, { eval: true, execArgv: [] });
    this.worker = worker;
    worker.once('online', () => {
      if (this.state === 'starting') this.state = 'ready';
    });
    worker.on('message', (reply: ThreadReply) => this.settle(reply));
    worker.once('error', (error) => this.fail(error));
    worker.once('exit', (code) =>
      this.fail(new Error(`the HTTP helper thread exited with code ${code}`)),
    );
    // After the listeners: adding a 'message' listener refs the worker again.
    worker.unref();
  }

  /** Whether requests can be sent now. */
  isReady(): boolean {
    return this.state === 'ready';
  }

  /**
   * Sends one request on the thread and resolves with the complete answer (any status).
   *
   * @throws {Error} (as a rejection) when the server cannot be reached, the request times
   *   out (with `timeoutMessage`), it is aborted (an `AbortError`), or the thread is not
   *   ready, fails or is closed.
   */
  request(request: BodyThreadRequest): Promise<BodyThreadResponse> {
    const worker = this.worker;
    if (this.state !== 'ready' || worker === undefined) {
      return Promise.reject(new Error('the HTTP helper thread is not running'));
    }
    const signal = request.signal;
    if (signal?.aborted) return Promise.reject(abortError());
    const id = this.nextId++;
    return new Promise<BodyThreadResponse>((resolve, reject) => {
      const onAbort = () => {
        const entry = this.pending.get(id);
        if (entry === undefined) return;
        this.forget(id, entry);
        worker.postMessage({ type: 'abort', id });
        reject(abortError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({
        type: 'request',
        id,
        url: request.url,
        options: request.options,
        payload: request.payload,
        timeoutMs: request.timeoutMs,
        timeoutMessage: request.timeoutMessage,
      });
    });
  }

  /** Ends the thread; pending requests are rejected. Idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const worker = this.worker;
    this.rejectAll(new Error('the HTTP helper thread was closed'));
    this.state = 'closed';
    this.worker = undefined;
    await worker?.terminate();
  }

  private settle(reply: ThreadReply): void {
    const entry = this.pending.get(reply.id);
    if (entry === undefined) return;
    this.forget(reply.id, entry);
    if ('error' in reply) {
      const error = new Error(reply.error) as Error & { code?: string };
      if (reply.code !== undefined) error.code = reply.code;
      entry.reject(error);
      return;
    }
    const body = Buffer.from(reply.body.buffer, reply.body.byteOffset, reply.body.byteLength);
    entry.resolve({ status: reply.status, headers: reply.headers, body, ascii: reply.ascii });
  }

  private forget(id: number, entry: Pending): void {
    this.pending.delete(id);
    entry.cleanup();
    if (this.pending.size === 0) this.worker?.unref();
  }

  private fail(error: Error): void {
    if (this.state === 'closed' || this.state === 'failed') return;
    this.state = 'failed';
    this.worker = undefined;
    this.rejectAll(new Error(`the HTTP helper thread failed: ${error.message}`, { cause: error }));
  }

  private rejectAll(error: Error): void {
    for (const [id, entry] of this.pending) {
      this.forget(id, entry);
      entry.reject(error);
    }
  }
}

function abortError(): Error {
  const error = new Error('The operation was aborted');
  error.name = 'AbortError';
  return error;
}
