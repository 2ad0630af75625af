import type { ProxiedRequest } from './fault-proxy.js';
import type { Perturbation } from './schedule.js';

/**
 * Whether an error perturbation may act on `request`, the write that bears its number in this
 * run: never on an Event (best-effort: a recorder rightly drops one it cannot write), and a
 * 409 only on an update, patch or delete. Schedules are drawn so in the reference run; a run
 * disturbed earlier (a crash) numbers its writes otherwise, and the write its number falls on
 * then goes through, as a perturbation whose write never came.
 */
export function errorFits(
  perturbation: Extract<Perturbation, { kind: 'write-error' | 'timeout-after-apply' }>,
  request: Pick<ProxiedRequest, 'verb' | 'resource'>,
): boolean {
  if (request.resource === 'events') return false;
  return (
    perturbation.kind !== 'write-error' ||
    perturbation.code !== 409 ||
    ['update', 'patch', 'delete'].includes(request.verb)
  );
}
