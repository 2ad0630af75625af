import { describe, expect, it } from 'vitest';
import { managerName } from './manager-name.js';

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
});
