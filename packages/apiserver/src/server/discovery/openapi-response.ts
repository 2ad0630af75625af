import type { IncomingMessage, ServerResponse } from 'node:http';
import { StatusError } from '../../api/status-error.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import { sendJson } from '../http/responses.js';
import { openApiV2, openApiV3Document, openApiV3Index } from './openapi.js';
import {
  openApiV2ProtobufContentType,
  type openApiV2ProtobufEncoder,
  wantsOpenApiV2Protobuf,
} from './openapi-v2-protobuf.js';

/**
 * Answers `/openapi/v2` (JSON, or gnostic protobuf when the Accept header prefers it, as
 * kubectl 1.27 and 1.28 ask), `/openapi/v3` and `/openapi/v3/<group-version>`; throws a 404
 * StatusError for any other path under `/openapi`.
 */
export function serveOpenApi(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  registry: ResourceRegistry,
  store: { currentRevision(): number },
  encoder: ReturnType<typeof openApiV2ProtobufEncoder>,
): void {
  if (path === '/openapi/v2' && wantsOpenApiV2Protobuf(req.headers.accept)) {
    const bytes = encoder.encode(openApiV2(registry));
    res.writeHead(200, {
      'Content-Type': openApiV2ProtobufContentType,
      'Content-Length': bytes.length,
      'Cache-Control': 'no-cache, private',
    });
    res.end(bytes);
    return;
  }
  let document: Record<string, unknown> | undefined;
  if (path === '/openapi/v2') document = openApiV2(registry);
  else if (path === '/openapi/v3') document = openApiV3Index(registry, store.currentRevision());
  else if (path.startsWith('/openapi/v3/'))
    document = openApiV3Document(registry, path.slice('/openapi/v3/'.length));
  if (document === undefined)
    throw new StatusError(404, 'NotFound', 'the server could not find the requested resource');
  sendJson(res, 200, document);
}
