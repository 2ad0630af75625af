import type { ServerResponse } from 'node:http';
import { StatusError } from '../../api/status-error.js';

/** Sends `body` as JSON with `code`, each warning as a `Warning: 299 - "..."` header. */
export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  warnings: string[] = [],
): void {
  for (const warning of warnings) res.appendHeader('Warning', `299 - ${JSON.stringify(warning)}`);
  sendRaw(res, code, JSON.stringify(body));
}

/** Sends JSON text as it is. */
export function sendRaw(res: ServerResponse, code: number, json: string): void {
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
    'Cache-Control': 'no-cache, private',
  });
  res.end(json);
}

/** Sends plain text. */
export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
  res.end(text);
}

/**
 * Sends the Status of a failed request (`StatusError`s as they are; anything else as a 500,
 * logged), with `Retry-After` on 429 and 504; destroys the connection when the answer had
 * already begun.
 */
export function sendError(res: ServerResponse, error: unknown): void {
  const status = StatusError.isInstance(error)
    ? error
    : StatusError.internal(error instanceof Error ? error.message : String(error));
  if (!StatusError.isInstance(error)) console.error('apiserver: unexpected error', error);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (status.code === 429 || status.code === 504)
    res.setHeader('Retry-After', String(status.details?.retryAfterSeconds ?? 1));
  sendJson(res, status.code, status.toStatus());
}
