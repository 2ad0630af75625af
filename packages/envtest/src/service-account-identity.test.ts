import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { createServiceAccountIdentity } from './service-account-identity.js';

// Refusals come before any request: the kubeconfig points nowhere, the issuer is never called.
const admin = new KubeConfig();
admin.loadFromClusterAndUser(
  { name: 'none', server: 'https://127.0.0.1:1', skipTLSVerify: false },
  { name: 'admin' },
);
const dependencies = {
  issueToken: async () => {
    throw new Error('no token should be issued');
  },
  directory: '/nonexistent',
  timeoutMs: 1000,
};
const identity = (options: Parameters<typeof createServiceAccountIdentity>[2]) =>
  createServiceAccountIdentity(admin, '', options, dependencies);

const binding = (roleKind: string, roleName: string) =>
  ({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: roleKind === 'Role' ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: { name: 'manager-rolebinding', namespace: 'ops-system' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: 'manager', namespace: 'ops-system' }],
  }) as KubernetesObject;

describe('createServiceAccountIdentity', () => {
  it('refuses names the API server would refuse, saying what a name may hold', async () => {
    await expect(identity({ namespace: 'Ops', name: 'manager' })).rejects.toThrow(
      `ServiceAccount namespace "Ops" is not a valid namespace name (a DNS label: lower-case letters, digits and '-')`,
    );
    await expect(identity({ namespace: 'ops', name: 'manager_1' })).rejects.toThrow(
      `ServiceAccount name "manager_1" is not a valid name (a DNS subdomain: lower-case letters, digits, '-' and '.')`,
    );
  });

  it('refuses a binding whose role is not among the objects', async () => {
    await expect(
      identity({
        namespace: 'ops-system',
        name: 'manager',
        rbac: [binding('ClusterRole', 'manager-role')],
      }),
    ).rejects.toThrow(
      'ClusterRoleBinding manager-rolebinding binds ClusterRole manager-role, which is not among the RBAC objects; pass the rendered role too',
    );
  });

  it('refuses RBAC that binds somebody else', async () => {
    await expect(
      identity({
        namespace: 'ops-system',
        name: 'other',
        rbac: [binding('Role', 'manager-role')],
      }),
    ).rejects.toThrow(
      'no binding among the RBAC objects names ServiceAccount ops-system/other (they name: ServiceAccount ops-system/manager)',
    );
  });
});
