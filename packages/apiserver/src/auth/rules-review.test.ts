import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { serviceAccountUser } from './authenticated-user.js';
import type { RbacPolicy } from './rbac-policy.js';
import { evaluateSelfSubjectRulesReview, rulesFor } from './rules-review.js';

const sa = serviceAccountUser('team', 'builder');

const policy: RbacPolicy = {
  roles: [
    {
      metadata: { name: 'configs', namespace: 'team' },
      rules: [
        {
          verbs: ['get', 'update'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['settings'],
        },
      ],
    },
  ],
  clusterRoles: [
    {
      metadata: { name: 'basic' },
      rules: [
        {
          verbs: ['create'],
          apiGroups: ['authorization.k8s.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        },
        { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/healthz'] },
      ],
    },
    {
      metadata: { name: 'aggregate' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { agg: 'yes' } }] },
    },
    {
      metadata: { name: 'piece', labels: { agg: 'yes' } },
      rules: [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'] }],
    },
  ],
  roleBindings: [
    {
      metadata: { name: 'configs', namespace: 'team' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
      roleRef: { kind: 'Role', name: 'configs' },
    },
    {
      metadata: { name: 'agg', namespace: 'team' },
      subjects: [{ kind: 'Group', name: 'system:serviceaccounts:team' }],
      roleRef: { kind: 'ClusterRole', name: 'aggregate' },
    },
    {
      metadata: { name: 'missing', namespace: 'team' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
      roleRef: { kind: 'Role', name: 'nope' },
    },
  ],
  clusterRoleBindings: [
    {
      metadata: { name: 'basic' },
      subjects: [{ kind: 'Group', name: 'system:authenticated' }],
      roleRef: { kind: 'ClusterRole', name: 'basic' },
    },
  ],
};

describe('rulesFor', () => {
  it('lists cluster-wide rules first, then the namespace, unmerged', () => {
    expect(rulesFor(sa, 'team', policy)).toEqual({
      resourceRules: [
        {
          verbs: ['create'],
          apiGroups: ['authorization.k8s.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        },
        {
          verbs: ['get', 'update'],
          apiGroups: [''],
          resources: ['configmaps'],
          resourceNames: ['settings'],
        },
        { verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/healthz'] }],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.k8s.io "nope" not found',
    });
  });

  it('lists only cluster-wide rules in another namespace or none', () => {
    const expected = {
      resourceRules: [
        {
          verbs: ['create'],
          apiGroups: ['authorization.k8s.io'],
          resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/healthz'] }],
      incomplete: false,
    };
    expect(rulesFor(sa, 'other', policy)).toEqual(expected);
    expect(rulesFor(sa, '', policy)).toEqual(expected);
  });

  it('lists nothing for a stranger and does not add superuser rules', () => {
    const empty = { resourceRules: [], nonResourceRules: [], incomplete: false };
    expect(rulesFor({ name: 'x', groups: [] }, 'team', policy)).toEqual(empty);
    expect(rulesFor({ name: 'admin', groups: ['system:masters'] }, 'team', {})).toEqual(empty);
  });

  it('does not throw on malformed policy', () => {
    const broken = {
      clusterRoles: [
        { metadata: { name: 'r' }, rules: [{ verbs: 'x', resources: ['pods'] }, null] },
      ],
      clusterRoleBindings: [
        {
          metadata: { name: 'b' },
          subjects: [{ kind: 'User', name: 'x' }],
          roleRef: { kind: 'ClusterRole', name: 'r' },
        },
        {
          metadata: { name: 'c' },
          subjects: [{ kind: 'User', name: 'x' }],
          roleRef: { kind: 'Thing', name: 'r' },
        },
      ],
    } as unknown as RbacPolicy;
    expect(rulesFor({ name: 'x', groups: [] }, 'team', broken)).toEqual({
      resourceRules: [{ verbs: [], resources: ['pods'] }],
      nonResourceRules: [],
      incomplete: false,
      evaluationError: 'unsupported role reference kind: "Thing"',
    });
  });
});

describe('evaluateSelfSubjectRulesReview', () => {
  it('answers with a fresh review holding the rules', () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'other' },
    };
    expect(evaluateSelfSubjectRulesReview(review, sa, policy)).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: {},
      status: rulesFor(sa, 'other', policy),
    });
  });

  it('needs a namespace, as kube-apiserver does', () => {
    try {
      evaluateSelfSubjectRulesReview({ spec: {} }, sa, policy);
      expect.unreachable();
    } catch (error) {
      expect(StatusError.isInstance(error)).toBe(true);
      expect((error as StatusError).code).toBe(400);
      expect((error as StatusError).message).toBe('no namespace on request');
    }
  });
});
