import { describe, expect, it } from 'vitest';
import {
  isServiceAccountUsername,
  serviceAccountUser,
  serviceAccountUsername,
} from './authenticated-user.js';

describe('serviceAccountUser', () => {
  it('names the account and puts it in the service-account groups', () => {
    expect(serviceAccountUser('kube-system', 'builder')).toEqual({
      name: 'system:serviceaccount:kube-system:builder',
      groups: [
        'system:serviceaccounts',
        'system:serviceaccounts:kube-system',
        'system:authenticated',
      ],
    });
  });

  it('matches user names exactly', () => {
    expect(serviceAccountUsername('ns', 'sa')).toBe('system:serviceaccount:ns:sa');
    expect(isServiceAccountUsername('system:serviceaccount:ns:sa', 'ns', 'sa')).toBe(true);
    expect(isServiceAccountUsername('system:serviceaccount:ns:sa', 'other', 'sa')).toBe(false);
    expect(isServiceAccountUsername('sa', 'ns', 'sa')).toBe(false);
  });
});
