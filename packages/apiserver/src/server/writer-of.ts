import type { IncomingMessage } from 'node:http';
import { StatusError } from '../api/status-error.js';
import { fieldManagerProblem, patchOptionsInvalid } from '../apply/index.js';

/**
 * What a write request says about its writer, for managed fields: the `fieldManager` query
 * parameter (checked as kube-apiserver checks it: at most 128 printable characters), the
 * User-Agent, and `force` (server-side apply only; `true` or `false`).
 *
 * @throws {StatusError} 422 naming the parameter when `fieldManager` or `force` is invalid.
 */
export function writerOf(
  req: IncomingMessage,
  query: URLSearchParams,
): { fieldManager?: string; userAgent?: string; force?: boolean } {
  const out: { fieldManager?: string; userAgent?: string; force?: boolean } = {};
  const fieldManager = query.get('fieldManager');
  if (fieldManager !== null && fieldManager !== '') {
    const problem = fieldManagerProblem(fieldManager);
    if (problem !== undefined) {
      throw new StatusError(422, 'Invalid', `fieldManager: ${problem}`, {
        causes: [{ reason: 'FieldValueInvalid', message: problem, field: 'fieldManager' }],
      });
    }
    out.fieldManager = fieldManager;
  }
  const userAgent = req.headers['user-agent'];
  if (userAgent) out.userAgent = userAgent;
  const force = query.get('force');
  if (force !== null) {
    if (
      !['true', 'false', '1', '0', 't', 'f', 'T', 'F', 'TRUE', 'FALSE', 'True', 'False'].includes(
        force,
      )
    ) {
      throw patchOptionsInvalid(
        'force',
        `Invalid value: ${JSON.stringify(force)}: must be a boolean`,
      );
    }
    out.force = ['true', '1', 't', 'T', 'TRUE', 'True'].includes(force);
  }
  return out;
}
