import { describe, expect, it } from 'vitest';
import { fieldManagerProblem, managerName } from './manager-name.js';

describe('managerName', () => {
  it('takes fieldManager, else the User-Agent up to its first slash, else the component', () => {
    expect(managerName({ fieldManager: 'me', userAgent: 'kubectl/v1.35.0' })).toBe('me');
    expect(managerName({ userAgent: 'kubectl/v1.35.0 (linux/amd64) kubernetes/abc' })).toBe(
      'kubectl',
    );
    expect(managerName({ userName: 'system:node:node-1' })).toBe('kubelet');
    expect(managerName({ userName: 'system:kube-controller-manager' })).toBe(
      'kube-controller-manager',
    );
    expect(managerName({ userName: 'system:apiserver' })).toBe('kube-apiserver');
    expect(managerName({ userName: 'alice' })).toBe('');
  });

  it('accepts at most 128 printable characters', () => {
    expect(fieldManagerProblem('kubectl-client-side-apply')).toBeUndefined();
    expect(fieldManagerProblem('x'.repeat(129))).toBe('Too long: may not be more than 128 bytes');
    expect(fieldManagerProblem('a\tb')).toBe(
      'Invalid value: "a\\tb": must only contain printable characters',
    );
  });
});
