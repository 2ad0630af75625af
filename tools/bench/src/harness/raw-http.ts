import http from 'node:http';
import type { BenchServer } from './bench-server.js';

/**
 * Bare HTTP to the bench server, with no client library in the way: for the floor of the
 * cold-sync benchmark and for measuring the server itself.
 */
export class RawHttp {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  private readonly base: URL;
  private readonly headers: Record<string, string>;

  constructor(server: BenchServer) {
    this.base = new URL(server.url);
    const token = server.kubeConfig().getCurrentUser()?.token;
    this.headers = {
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    };
  }

  /**
   * GETs `path` and resolves with the whole body as bytes.
   *
   * @throws {Error} on a non-200 answer or a connection failure.
   */
  get(path: string): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const request = http.get(
        new URL(path, this.base),
        { agent: this.agent, headers: this.headers },
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
      const request = http.request(
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
   * Opens a watch on `path` (query included) and calls `onLine` with each event line.
   * Resolves once the server has answered 200 (the stream is open).
   */
  watch(path: string, onLine: (line: string) => void): Promise<{ close(): void }> {
    return new Promise((resolve, reject) => {
      const request = http.get(
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
            buffer += chunk;
            let newline = buffer.indexOf('\n');
            while (newline >= 0) {
              const line = buffer.slice(0, newline);
              buffer = buffer.slice(newline + 1);
              if (line) onLine(line);
              newline = buffer.indexOf('\n');
            }
          });
          response.on('error', () => undefined);
          resolve({ close: () => request.destroy() });
        },
      );
      request.on('error', reject);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}
