import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ConversionReview, conversionReviewApiVersion } from '@ops/api';
import type { Logger } from 'pino';
import type { AdmissionHandler } from './admission-handler.js';
import { type AdmissionReview, admissionReviewApiVersion } from './admission-review.js';
import {
  ConversionWebhook,
  conversionFailure,
  parseConversionReview,
} from './conversion-webhook.js';
import { decideAdmission } from './decide-admission.js';
import { parseAdmissionReview } from './parse-admission-review.js';
import { requestPath } from './request-path.js';

/** What answering a request needs of its webhook server. */
export interface WebhookRoutes {
  /** The handler registered at each path, in registration order. */
  readonly handlers: ReadonlyMap<string, AdmissionHandler | ConversionWebhook>;
  /** Where bad requests, failures and decisions are logged. */
  readonly logger: Logger;
  /** Largest accepted request body in bytes; larger ones are answered 413. */
  readonly maxRequestBytes: number;
  /** Whether the server is stopping: its answers then close their connection. */
  stopping(): boolean;
}

/** The review a path speaks, and so the body of its error answers. */
type ReviewKind = 'AdmissionReview' | 'ConversionReview';

/**
 * Answers one request to a webhook server (see `WebhookServer` for the contract: the
 * review answered at a registered path, and the HTTP error status and review body of a
 * request that is not one). Never rejects: an unexpected failure is logged and answered
 * 500, or the connection is cut when the answer had begun; a client gone away is logged.
 */
export async function answerWebhookRequest(
  request: IncomingMessage,
  response: ServerResponse,
  routes: WebhookRoutes,
): Promise<void> {
  try {
    await serve(request, response, routes);
  } catch (error) {
    if (request.destroyed || response.destroyed) {
      // The client went away while the body was being read: nobody to answer.
      routes.logger.warn(
        { err: error, url: request.url },
        'webhook client closed the connection early',
      );
      return;
    }
    routes.logger.error({ err: error, url: request.url }, 'webhook request failed unexpectedly');
    if (!response.headersSent) {
      reject(routes, request, response, 500, `webhook server failed: ${messageOf(error)}`);
    } else {
      response.destroy();
    }
  }
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  routes: WebhookRoutes,
): Promise<void> {
  if (routes.stopping()) response.setHeader('connection', 'close');
  const path = requestPath(request.url);
  const handler = path === undefined ? undefined : routes.handlers.get(path);
  const review = handler instanceof ConversionWebhook ? 'ConversionReview' : 'AdmissionReview';
  const aReview = review === 'AdmissionReview' ? 'an AdmissionReview' : 'a ConversionReview';
  const fail = (code: number, message: string, uid = ''): void =>
    reject(routes, request, response, code, message, uid, review);
  if (handler === undefined || path === undefined) {
    const paths = [...routes.handlers.keys()];
    const known = paths.length === 0 ? 'none' : paths.join(', ');
    fail(404, `no webhook is registered at ${path ?? request.url}; registered paths: ${known}`);
    return;
  }
  if (request.method !== 'POST') {
    response.setHeader('allow', 'POST');
    fail(405, `method ${request.method} is not allowed: POST ${aReview} to ${path}`);
    return;
  }
  const contentType = request.headers['content-type'];
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    fail(
      415,
      `content type ${contentType === undefined ? '(none)' : JSON.stringify(contentType)} is not supported: send the ${review} as application/json`,
    );
    return;
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > routes.maxRequestBytes) {
    rejectTooLarge(request, response, routes, review);
    return;
  }
  const body = await readBody(request, routes.maxRequestBytes);
  if (body === 'too-large') {
    rejectTooLarge(request, response, routes, review);
    return;
  }
  if (body.length === 0) {
    fail(400, `request body is empty: POST ${aReview}`);
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch (error) {
    fail(400, `request body is not valid JSON: ${messageOf(error)}`);
    return;
  }
  if (handler instanceof ConversionWebhook) {
    const parsedConversion = parseConversionReview(json);
    if (!parsedConversion.ok) {
      fail(400, parsedConversion.message, parsedConversion.uid);
      return;
    }
    const answer: ConversionReview = {
      apiVersion: conversionReviewApiVersion,
      kind: 'ConversionReview',
      response: handler.review(parsedConversion.request, routes.logger),
    };
    writeJson(response, 200, answer);
    return;
  }
  const parsed = parseAdmissionReview(json);
  if (!parsed.ok) {
    fail(400, parsed.message, parsed.uid);
    return;
  }
  const admissionResponse = await decideAdmission(path, handler, parsed.request, routes.logger);
  const answer: AdmissionReview = {
    apiVersion: admissionReviewApiVersion,
    kind: 'AdmissionReview',
    response: admissionResponse,
  };
  writeJson(response, 200, answer);
}

function rejectTooLarge(
  request: IncomingMessage,
  response: ServerResponse,
  routes: WebhookRoutes,
  review: ReviewKind,
): void {
  // The rest of the body is not read: close the connection after answering, and drain
  // what arrives meanwhile so the client can read the answer.
  response.setHeader('connection', 'close');
  request.on('error', () => undefined);
  request.resume();
  reject(
    routes,
    request,
    response,
    413,
    `request body is larger than ${routes.maxRequestBytes} bytes: ${review}s that large are not accepted (raise maxRequestBytes if this is expected)`,
    '',
    review,
  );
}

function reject(
  routes: WebhookRoutes,
  request: IncomingMessage,
  response: ServerResponse,
  code: number,
  message: string,
  uid = '',
  review: ReviewKind = 'AdmissionReview',
): void {
  routes.logger.warn(
    { url: request.url, method: request.method, code, uid: uid || undefined },
    `bad webhook request: ${message}`,
  );
  const body: AdmissionReview | ReturnType<typeof conversionFailure> =
    review === 'ConversionReview'
      ? conversionFailure(uid, code, message)
      : {
          apiVersion: admissionReviewApiVersion,
          kind: 'AdmissionReview',
          response: { uid, allowed: false, status: { status: 'Failure', code, message } },
        };
  writeJson(response, code, body);
}

/** Reads the body, or stops reading and returns `'too-large'` once it exceeds `limit` bytes. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  });
}

function writeJson(response: ServerResponse, statusCode: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(statusCode, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
