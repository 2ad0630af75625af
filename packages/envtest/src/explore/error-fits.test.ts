import { describe, expect, it } from 'vitest';
import { errorFits } from './error-fits.js';

describe('errorFits', () => {
  const conflict = { kind: 'write-error', write: 3, code: 409 } as const;
  const throttled = { kind: 'write-error', write: 3, code: 429 } as const;
  const timeout = { kind: 'timeout-after-apply', write: 3 } as const;

  it('never acts on an Event write', () => {
    for (const perturbation of [conflict, throttled, timeout])
      expect(errorFits(perturbation, { verb: 'create', resource: 'events' })).toBe(false);
    expect(errorFits(throttled, { verb: 'patch', resource: 'events' })).toBe(false);
  });

  it('puts a 409 only on an update, patch or delete', () => {
    expect(errorFits(conflict, { verb: 'create', resource: 'configmaps' })).toBe(false);
    for (const verb of ['update', 'patch', 'delete'])
      expect(errorFits(conflict, { verb, resource: 'widgets/status' })).toBe(true);
  });

  it('puts a 429, a 500 or a timeout on any other write', () => {
    expect(errorFits(throttled, { verb: 'create', resource: 'configmaps' })).toBe(true);
    expect(
      errorFits({ ...throttled, code: 500 }, { verb: 'delete', resource: 'deployments' }),
    ).toBe(true);
    expect(errorFits(timeout, { verb: 'create', resource: 'deployments' })).toBe(true);
  });
});
