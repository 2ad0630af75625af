import type { IncomingMessage } from 'node:http';
import type { DeleteOptions, DeletionPropagation } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { queryBool } from '../../query/query-bool.js';
import { readRequestBody } from './read-request-body.js';

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
  const options: DeleteOptions = isJsonObject(body) ? (body as DeleteOptions) : {};
  const policy = query.get('propagationPolicy');
  // Unchecked here, as the body's: ResourceService.delete refuses an unknown policy (400).
  if (policy) options.propagationPolicy = policy as DeletionPropagation;
  // Both checked by parseQueryOptions before the request got here.
  const grace = query.get('gracePeriodSeconds');
  if (grace !== null) options.gracePeriodSeconds = Number(grace);
  if (query.has('orphanDependents'))
    options.orphanDependents = queryBool(query, 'orphanDependents');
  return options;
}
