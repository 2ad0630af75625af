import { describe, expect, it } from 'vitest';
import { PolicyRuleError } from '../errors/policy-rule-error.js';
import { clusterRoleFromRules, mergePolicyRules } from './cluster-role.js';
import {
  customResourcePermissions,
  type PolicyRule,
  permission,
  rbacRules,
} from './policy-rule.js';

const all = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] as const;

/** What the controllers of an operator declare, in no particular order. */
function declaredRules(): PolicyRule[] {
  return rbacRules(
    permission({ group: 'apps', resources: 'deployments', verbs: ['watch', 'get', 'list'] }),
    permission({
      group: '',
      resources: ['services', 'configmaps'],
      verbs: ['get', 'list', 'watch'],
    }),
    permission({
      group: 'apps',
      resources: 'deployments',
      verbs: ['create', 'update', 'patch', 'delete', 'get'],
    }),
    permission({ group: 'core', resources: 'events', verbs: ['create', 'patch'] }),
    customResourcePermissions({ group: 'core.crd.lixueduan.com', plural: 'applications' }),
    permission({ group: 'batch', resources: 'jobs', verbs: all }),
    permission({
      group: 'networking.k8s.io',
      resources: 'ingresses',
      verbs: ['get', 'list', 'watch'],
    }),
    permission({ group: 'extensions', resources: 'ingresses', verbs: ['list', 'get', 'watch'] }),
    permission({ nonResourceURLs: ['/metrics'], verbs: ['get'] }),
    permission({ nonResourceURLs: ['/healthz'], verbs: ['get'] }),
    permission({
      group: '',
      resources: 'secrets',
      resourceNames: ['webhook-cert'],
      verbs: ['get', 'update'],
    }),
    permission({ group: 'coordination.k8s.io', resources: 'leases', verbs: ['*', 'get'] }),
    [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  );
}

describe('mergePolicyRules', () => {
  it('merges and sorts the way controller-gen does', () => {
    const sorted = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
    const expected: PolicyRule[] = [
      { nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] },
      { apiGroups: [''], resources: ['configmaps', 'services'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
      {
        apiGroups: [''],
        resourceNames: ['webhook-cert'],
        resources: ['secrets'],
        verbs: ['get', 'update'],
      },
      { apiGroups: ['apps'], resources: ['deployments'], verbs: sorted },
      { apiGroups: ['batch'], resources: ['jobs'], verbs: sorted },
      { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['*'] },
      { apiGroups: ['core.crd.lixueduan.com'], resources: ['applications'], verbs: sorted },
      {
        apiGroups: ['core.crd.lixueduan.com'],
        resources: ['applications/finalizers'],
        verbs: ['update'],
      },
      {
        apiGroups: ['core.crd.lixueduan.com'],
        resources: ['applications/status'],
        verbs: ['get', 'patch', 'update'],
      },
      {
        apiGroups: ['extensions', 'networking.k8s.io'],
        resources: ['ingresses'],
        verbs: ['get', 'list', 'watch'],
      },
    ];
    const merged = mergePolicyRules(declaredRules());
    expect(merged).toStrictEqual(expected);
    // Keys in YAML order too.
    expect(JSON.stringify(merged)).toBe(JSON.stringify(expected));
  });

  it('does not depend on the order of the rules and leaves them unchanged', () => {
    const rules = declaredRules();
    const copy = structuredClone(rules);
    const forward = mergePolicyRules(rules);
    expect(rules).toEqual(copy);
    expect(mergePolicyRules([...rules].reverse())).toEqual(forward);
    expect(mergePolicyRules(forward)).toEqual(forward);
  });

  it('merges a rule listing several resources with rules for each of them', () => {
    expect(
      mergePolicyRules([
        { apiGroups: ['apps'], resources: ['deployments', 'statefulsets'], verbs: ['get'] },
        { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['list'] },
      ]),
    ).toStrictEqual([
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
      { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['get', 'list'] },
    ]);
  });

  it('is empty for no rules', () => {
    expect(mergePolicyRules([])).toEqual([]);
  });
});

describe('clusterRoleFromRules', () => {
  it('wraps the merged rules in a ClusterRole', () => {
    expect(
      clusterRoleFromRules('manager-role', [
        permission({ group: 'apps', resources: 'deployments', verbs: ['get'] }),
      ]),
    ).toStrictEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'manager-role' },
      rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }],
    });
  });

  it.each(['', '..', 'a/b', '50%'])('rejects the name %j', (name) => {
    expect(() => clusterRoleFromRules(name, [])).toThrow(PolicyRuleError);
  });
});
