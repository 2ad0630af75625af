import type { IncomingMessage } from 'node:http';
import { queryBool } from '../../query/query-bool.js';
import type { QueryOptions } from '../../query/query-options.js';

/** What a write says about its writer, for managed fields and server-side apply. */
export interface RequestWriter {
  /** The `fieldManager` parameter, when given and not empty. */
  fieldManager?: string;
  /** The User-Agent, whose first segment names the manager without `fieldManager`. */
  userAgent?: string;
  /** `force` (server-side apply only), read as kube reads booleans. */
  force?: boolean;
}

/**
 * The writer of a request: `fieldManager` from the parsed (and validated) query options,
 * the User-Agent header, and `force` when the query has it.
 */
export function writerOf(
  req: IncomingMessage,
  query: URLSearchParams,
  options: Pick<QueryOptions, 'fieldManager'>,
): RequestWriter {
  const writer: RequestWriter = {};
  if (options.fieldManager) writer.fieldManager = options.fieldManager;
  const userAgent = req.headers['user-agent'];
  if (userAgent) writer.userAgent = userAgent;
  if (query.has('force')) writer.force = queryBool(query, 'force');
  return writer;
}
