import { request } from 'node:http';
import { expect } from 'vitest';
import type { ApiServer } from '../src/index.js';

/** An answer as it came off the wire. */
export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON (throws when it is not). */
  json(): any;
}

/**
 * Sends one request to a plain-HTTP {@link ApiServer} with `path` exactly as given (no URL
 * normalization, unlike fetch, so `%2e%2e` and malformed escapes reach the server), as the
 * admin unless `headers` says otherwise.
 */
export function rawRequest(
  server: ApiServer,
  method: string,
  path: string,
  body?: string | Buffer,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          authorization: `Bearer ${server.adminToken}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            json: () => JSON.parse(text),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Asserts the server still serves after a hostile request: `/readyz` answers 200, and lists of
 * `resources` (default: configmaps, in all namespaces and in `default`) answer 200 with JSON.
 */
export async function expectServing(
  server: ApiServer,
  resources = ['/api/v1/configmaps', '/api/v1/namespaces/default/configmaps'],
): Promise<void> {
  const ready = await rawRequest(server, 'GET', '/readyz');
  expect(ready.status).toBe(200);
  for (const path of resources) {
    const list = await rawRequest(server, 'GET', path);
    expect(list.status, `${path}: ${list.text.slice(0, 300)}`).toBe(200);
    expect(Array.isArray(list.json().items)).toBe(true);
  }
}

/** A request that the server must refuse, and how. */
export interface Refusal {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  code: number;
  /** The Status message: exactly, or matching a pattern. */
  message: string | RegExp;
}

/**
 * Sends a request that must be refused, asserts the Status code and message, then
 * {@link expectServing} with `lists`; resolves with the Status.
 */
export async function expectRefusal(
  server: ApiServer,
  refusal: Refusal,
  lists?: string[],
): Promise<any> {
  const headers: Record<string, string> = refusal.contentType
    ? { 'content-type': refusal.contentType }
    : {};
  const res = await rawRequest(server, refusal.method, refusal.path, refusal.body, headers);
  expect(res.status, res.text.slice(0, 300)).toBe(refusal.code);
  const status = res.json();
  expect(status).toMatchObject({ kind: 'Status', code: refusal.code });
  if (typeof refusal.message === 'string') expect(status.message).toBe(refusal.message);
  else expect(status.message).toMatch(refusal.message);
  await expectServing(server, lists);
  return status;
}
