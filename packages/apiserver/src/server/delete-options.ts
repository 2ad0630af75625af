import type { IncomingMessage } from 'node:http';
import { isObject } from '../cluster/json.js';
import { readRequestBody } from './read-request-body.js';
import type { DeleteOptions } from './resource-service.js';

/**
 * The options of a DELETE: the `DeleteOptions` body (optional), overridden by the
 * `propagationPolicy` and `gracePeriodSeconds` query parameters.
 */
export async function readDeleteOptions(
  maxBodyBytes: number,
  req: IncomingMessage,
  query: URLSearchParams,
): Promise<DeleteOptions> {
  const body = await readRequestBody(maxBodyBytes, req, false, true);
  const options: DeleteOptions = isObject(body) ? (body as DeleteOptions) : {};
  const policy = query.get('propagationPolicy');
  if (policy) options.propagationPolicy = policy;
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) options.gracePeriodSeconds = Number(grace);
  return options;
}
