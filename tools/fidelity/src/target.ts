import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Answer, FidelityRequest } from './scenario.js';

/** A server the corpus is sent to. */
export interface Target {
  /** `local` (the local API server) or `real` (kube-apiserver). */
  readonly name: 'local' | 'real';
  /** Sends one request; resolves with any status, rejects when the server cannot be reached. */
  send(request: FidelityRequest): Promise<Answer>;
}

/** The User-Agent of every request (kube-apiserver names field managers after it). */
export const userAgent = 'ops-fidelity';

/** How long a watch may stream before the client gives up on the server ending it. */
const streamLimitMs = 15_000;

/**
 * A {@link Target} that sends over HTTP(S) to the current cluster of `kubeConfig`, as its
 * current user (token, client certificate and CA applied as client-node applies them).
 *
 * @throws {Error} when the kubeconfig has no current cluster.
 */
export function httpTarget(name: Target['name'], kubeConfig: KubeConfig): Target {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null)
    throw new Error(`the ${name} server's kubeconfig has no current cluster; set current-context`);
  const server = cluster.server;
  return {
    name,
    async send(request) {
      const url = new URL(request.path, server);
      const options: https.RequestOptions = {
        method: request.method,
        headers: { Accept: request.accept ?? 'application/json', 'User-Agent': userAgent },
      };
      await kubeConfig.applyToHTTPSOptions(options);
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
          'Content-Length': String(Buffer.byteLength(payload)),
        };
      }
      const transport = url.protocol === 'https:' ? https : http;
      return new Promise<Answer>((resolve, reject) => {
        const outgoing = transport.request(url, options, (response) => {
          const chunks: Buffer[] = [];
          const limit = request.stream
            ? setTimeout(() => response.destroy(), streamLimitMs)
            : undefined;
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('close', () => {
            clearTimeout(limit);
            const text = Buffer.concat(chunks).toString('utf8');
            const status = response.statusCode ?? 0;
            resolve({
              status,
              contentType: mediaType(response.headers['content-type']),
              warnings: warnings(response.headers.warning),
              body: request.stream && status < 300 ? parseEvents(text) : parseBody(text),
            });
          });
        });
        outgoing.on('error', reject);
        outgoing.end(payload);
      });
    },
  };
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** `299 - "text"` headers (several may be joined by commas) to their texts. */
function warnings(header: string | string[] | undefined): string[] {
  const values = Array.isArray(header) ? header : header === undefined ? [] : [header];
  return values.flatMap((value) =>
    [...value.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((match) =>
      (match[1] ?? '').replace(/\\(.)/g, '$1'),
    ),
  );
}

function parseBody(text: string): unknown {
  if (text === '') return '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A watch stream's newline-separated JSON events (a torn last line is kept as text). */
function parseEvents(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(parseBody);
}
