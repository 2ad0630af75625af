import http from 'node:http';
import https from 'node:https';
import type { ServerEndpoint } from './bench-server.js';

/**
 * Bare HTTP(S) to the bench server, with no client library in the way: for the floor of the
 * cold-sync benchmark, for measuring the server itself and for seeding the real server. Plain
 * HTTP for the local server; HTTPS verified against the kubeconfig's CA for the real one.
 * The admin user's bearer token goes with every request.
 */
export class RawHttp {
  private readonly agent: http.Agent;
  private readonly transport: typeof http.request;
  private readonly base: URL;
  private readonly headers: Record<string, string>;

  /**
   * @throws {Error} when the server is HTTPS and its kubeconfig neither carries a CA nor
   *   skips verification.
   */
  constructor(server: ServerEndpoint) {
    const config = server.kubeConfig();
    this.base = new URL(server.url);
    if (this.base.protocol === 'https:') {
      const cluster = config.getCurrentCluster();
      const ca = cluster?.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
      if (ca === undefined && cluster?.skipTLSVerify !== true)
        throw new Error(
          `the kubeconfig of ${server.url} has no certificate-authority-data; RawHttp verifies HTTPS against it`,
        );
      this.agent = new https.Agent({
        keepAlive: true,
        maxSockets: 256,
        ...(ca === undefined ? { rejectUnauthorized: false } : { ca }),
      });
      this.transport = https.request;
    } else {
      this.agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
      this.transport = http.request;
    }
    const token = config.getCurrentUser()?.token;
    this.headers = {
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    };
  }

  /**
   * GETs `path` and resolves with the whole body as bytes. `accept` replaces the
   * `Accept: application/json` header (e.g. `text/plain` for `/metrics`).
   *
   * @throws {Error} on a non-200 answer or a connection failure.
   */
  get(path: string, accept?: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const request = this.transport(
        new URL(path, this.base),
        {
          agent: this.agent,
          headers: accept === undefined ? this.headers : { ...this.headers, Accept: accept },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const body = Buffer.concat(chunks);
            if (response.statusCode === 200) resolve(body);
            else reject(new Error(`GET ${path} answered ${response.statusCode}: ${body}`));
          });
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  /**
   * Sends a JSON (or merge-patch) request and resolves with the parsed answer.
   *
   * @throws {Error} on an answer of 300 or more, or a connection failure.
   */
  send(
    method: 'POST' | 'PUT' | 'PATCH',
    path: string,
    body: unknown,
    contentType = 'application/json',
  ): Promise<unknown> {
    const payload = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = this.transport(
        new URL(path, this.base),
        {
          method,
          agent: this.agent,
          headers: {
            ...this.headers,
            'Content-Type': contentType,
            'Content-Length': Buffer.byteLength(payload),
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if ((response.statusCode ?? 0) < 300) resolve(text ? JSON.parse(text) : undefined);
            else reject(new Error(`${method} ${path} answered ${response.statusCode}: ${text}`));
          });
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  /**
   * Opens a watch on `path` (query included) and calls `onLine` with each event line, and
   * `onEnd` once when the stream ends for any reason other than `close()` (the server ended
   * it, or the connection broke). Resolves once the server has answered 200 (the stream is
   * open).
   */
  watch(
    path: string,
    onLine: (line: string) => void,
    onEnd?: () => void,
  ): Promise<{ close(): void }> {
    return new Promise((resolve, reject) => {
      const request = this.transport(
        new URL(path, this.base),
        { agent: this.agent, headers: this.headers },
        (response) => {
          if (response.statusCode !== 200) {
            reject(new Error(`watch ${path} answered ${response.statusCode}`));
            response.resume();
            return;
          }
          response.setEncoding('utf8');
          let buffer = '';
          response.on('data', (chunk: string) => {
            // One slice per line and one for the rest of the chunk: a floor pays no more.
            buffer += chunk;
            let start = 0;
            for (
              let newline = buffer.indexOf('\n');
              newline >= 0;
              newline = buffer.indexOf('\n', start)
            ) {
              if (newline > start) onLine(buffer.slice(start, newline));
              start = newline + 1;
            }
            if (start > 0) buffer = buffer.slice(start);
          });
          let ended = false;
          const end = () => {
            if (ended) return;
            ended = true;
            onEnd?.();
          };
          response.on('end', end);
          response.on('error', end);
          response.on('close', end);
          resolve({
            close: () => {
              ended = true;
              request.destroy();
            },
          });
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
