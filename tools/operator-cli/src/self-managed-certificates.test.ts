import { describe, expect, it } from 'vitest';
import { usesSelfManagedCertificates } from './self-managed-certificates.js';

const deployment = (args: unknown) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'controller-manager' },
  spec: { template: { spec: { containers: [{ name: 'manager', args }] } } },
});

describe('usesSelfManagedCertificates', () => {
  it('finds the flag as one arg or as two', () => {
    expect(usesSelfManagedCertificates([deployment(['--webhook-cert-mode=self-managed'])])).toBe(
      true,
    );
    expect(
      usesSelfManagedCertificates([
        deployment(['--leader-elect', '--webhook-cert-mode', 'self-managed']),
      ]),
    ).toBe(true);
  });

  it('is false for other modes, other kinds and objects it did not expect', () => {
    expect(usesSelfManagedCertificates([deployment(['--leader-elect'])])).toBe(false);
    expect(usesSelfManagedCertificates([deployment(['--webhook-cert-mode=file'])])).toBe(false);
    expect(usesSelfManagedCertificates([deployment('not a list')])).toBe(false);
    expect(
      usesSelfManagedCertificates([
        {
          kind: 'ConfigMap',
          spec: {
            template: { spec: { containers: [{ args: ['--webhook-cert-mode=self-managed'] }] } },
          },
        },
        { kind: 'Deployment' },
        { kind: 'Deployment', spec: { template: { spec: { containers: [null, 'manager'] } } } },
      ]),
    ).toBe(false);
  });
});
