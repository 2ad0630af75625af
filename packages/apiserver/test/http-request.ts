import http from 'node:http';
import https from 'node:https';
import { expect } from 'vitest';
import type { ApiServer } from '../src/index.js';

/** The answer to one request: its status, headers and body (JSON when it parses). */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  // Tests read answers loosely.
  body: any;
}

/**
 * One request to `server` over real HTTP (or HTTPS, trusting the server's CA), as `token`'s
 * user (anonymous when `token` is undefined), with `body` sent as JSON (unless `headers` set
 * another Content-Type) and extra `headers` (pairs may repeat a header).
 */
export function httpRequest(
  server: ApiServer,
  method: string,
  path: string,
  options: {
    token?: string;
    body?: unknown;
    headers?: Record<string, string> | [string, string][];
  } = {},
): Promise<HttpAnswer> {
  const pairs: [string, string][] = Array.isArray(options.headers)
    ? options.headers
    : Object.entries(options.headers ?? {});
  if (options.token !== undefined) pairs.push(['Authorization', `Bearer ${options.token}`]);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (payload !== undefined && !pairs.some(([name]) => name.toLowerCase() === 'content-type'))
    pairs.push(['Content-Type', 'application/json']);
  const headers: Record<string, string[]> = {};
  for (const [name, value] of pairs) headers[name] = [...(headers[name] ?? []), value];
  const url = new URL(path, server.url);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method, headers, ...(server.caCertificate ? { ca: server.caCertificate } : {}) },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // Not JSON (`/readyz` answers `ok`): keep the text.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Asserts the server still serves: `/readyz` answers `ok` and the admin can list Namespaces. */
export async function expectServing(server: ApiServer): Promise<void> {
  const ready = await httpRequest(server, 'GET', '/readyz');
  expect(ready).toMatchObject({ status: 200, body: 'ok' });
  const list = await httpRequest(server, 'GET', '/api/v1/namespaces', {
    token: server.adminToken,
  });
  expect(list.status).toBe(200);
  expect(list.body.items.map((n: { metadata: { name: string } }) => n.metadata.name)).toContain(
    'default',
  );
}
