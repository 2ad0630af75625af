import { describe, expect, it } from 'vitest';
import { compactRules, compactString, escalationMessage } from './confirm-no-escalation.js';
import type { RbacPolicy } from './rbac-policy.js';

const rbac = 'rbac.authorization.k8s.io';
const bob = { name: 'bob', groups: ['devs', 'system:authenticated'] };

describe('compactString', () => {
  it('prints the non-empty fields with Go %q lists, as kube', () => {
    expect(
      compactString({
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: ['a'],
        verbs: ['get', 'list'],
      }),
    ).toBe('{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["get" "list"]}');
    expect(compactString({ nonResourceURLs: ['/metrics'], verbs: ['get'] })).toBe(
      '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    );
  });
});

describe('compactRules', () => {
  it('merges the verbs of one group, resource and name, and keeps URL rules apart', () => {
    expect(
      compactRules([
        { apiGroups: [''], resources: ['pods'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
        { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
        { nonResourceURLs: ['/x'], verbs: ['get'] },
      ]),
    ).toEqual([
      { nonResourceURLs: ['/x'], verbs: ['get'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods'], verbs: ['get'], resourceNames: ['a'] },
    ]);
  });
});

describe('escalationMessage', () => {
  const policy: RbacPolicy = {
    roles: [
      {
        metadata: { name: 'reader', namespace: 'team' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      },
    ],
    roleBindings: [
      {
        metadata: { name: 'bob-reader', namespace: 'team' },
        roleRef: { apiGroup: rbac, kind: 'Role', name: 'reader' },
        subjects: [{ kind: 'User', name: 'bob' }],
      },
    ],
    clusterRoleBindings: [
      {
        metadata: { name: 'devs-gone' },
        roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'gone' },
        subjects: [{ kind: 'Group', name: 'devs' }],
      },
    ],
  };
  const wanted = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }];

  it('is undefined when the user holds the rules in that namespace', () => {
    expect(escalationMessage(bob, 'team', wanted, policy)).toBeUndefined();
  });

  it('names the user, groups, sorted missing rules and resolution errors, as kube', () => {
    expect(escalationMessage(bob, '', wanted, policy)).toBe(
      'user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["configmaps"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
    );
    expect(
      escalationMessage(
        bob,
        'team',
        [
          { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'get'] },
          { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] },
        ],
        policy,
      )?.split('\n'),
    ).toEqual([
      'user "bob" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["list" "get"]}',
      '{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "gone" not found]',
    ]);
  });
});
