import type { Answer, FidelityRequest } from './scenario.js';
import type { Target } from './target.js';

/**
 * A {@link Target} for tests that answers each request with `respond` (status 200, JSON, no
 * warnings unless it says otherwise) and records what it was sent.
 */
export function fakeTarget(
  name: Target['name'],
  respond: (request: FidelityRequest) => Partial<Answer>,
): Target & { sent: FidelityRequest[] } {
  const sent: FidelityRequest[] = [];
  return {
    name,
    sent,
    async send(request) {
      sent.push(request);
      return {
        status: 200,
        contentType: 'application/json',
        warnings: [],
        body: {},
        ...respond(request),
      };
    },
  };
}
