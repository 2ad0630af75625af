import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import {
  evaluateSelfSubjectAccessReview,
  evaluateSubjectAccessReview,
  type SelfSubjectAccessReview,
} from './access-review.js';
import { serviceAccountUser } from './authenticated-user.js';
import type { RbacPolicy } from './rbac-policy.js';

const sa = serviceAccountUser('default', 'sa');

const policy: RbacPolicy = {
  roles: [
    {
      metadata: { name: 'status-writer', namespace: 'default' },
      rules: [
        {
          verbs: ['update'],
          apiGroups: ['apps'],
          resources: ['deployments/status'],
          resourceNames: ['web'],
        },
      ],
    },
  ],
  clusterRoles: [
    { metadata: { name: 'metrics' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }] },
    {
      metadata: { name: 'any-version' },
      rules: [{ verbs: ['list'], apiGroups: ['batch'], resources: ['jobs'] }],
    },
  ],
  roleBindings: [
    {
      metadata: { name: 'sa-status', namespace: 'default' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa' }],
      roleRef: { kind: 'Role', name: 'status-writer' },
    },
  ],
  clusterRoleBindings: [
    {
      metadata: { name: 'metrics' },
      subjects: [{ kind: 'Group', name: 'system:serviceaccounts' }],
      roleRef: { kind: 'ClusterRole', name: 'metrics' },
    },
    {
      metadata: { name: 'jobs' },
      subjects: [{ kind: 'User', name: 'jane' }],
      roleRef: { kind: 'ClusterRole', name: 'any-version' },
    },
    {
      metadata: { name: 'broken' },
      subjects: [{ kind: 'User', name: 'bob' }],
      roleRef: { kind: 'ClusterRole', name: 'gone' },
    },
  ],
};

const ssar = (spec: SelfSubjectAccessReview['spec']): SelfSubjectAccessReview => ({
  apiVersion: 'authorization.k8s.io/v1',
  kind: 'SelfSubjectAccessReview',
  metadata: { creationTimestamp: null } as never,
  spec,
});

describe('evaluateSelfSubjectAccessReview', () => {
  it('answers what kubectl auth can-i asks, echoing the review', () => {
    const review = ssar({
      resourceAttributes: {
        namespace: 'default',
        verb: 'update',
        group: 'apps',
        resource: 'deployments',
        subresource: 'status',
        name: 'web',
      },
    });
    expect(evaluateSelfSubjectAccessReview(review, sa, policy)).toEqual({
      ...review,
      status: {
        allowed: true,
        reason:
          'RBAC: allowed by RoleBinding "sa-status/default" of Role "status-writer" to ServiceAccount "sa/default"',
      },
    });
  });

  it('leaves reason and denied out of a plain denial', () => {
    const review = ssar({
      resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'pods' },
    });
    expect(evaluateSelfSubjectAccessReview(review, sa, policy).status).toEqual({ allowed: false });
  });

  it('checks resourceNames against the name asked for', () => {
    const spec = {
      namespace: 'default',
      verb: 'update',
      group: 'apps',
      resource: 'deployments',
      subresource: 'status',
    };
    expect(
      evaluateSelfSubjectAccessReview(
        ssar({ resourceAttributes: { ...spec, name: 'db' } }),
        sa,
        policy,
      ).status.allowed,
    ).toBe(false);
    expect(
      evaluateSelfSubjectAccessReview(ssar({ resourceAttributes: spec }), sa, policy).status
        .allowed,
    ).toBe(false);
  });

  it('answers non-resource questions', () => {
    const review = ssar({ nonResourceAttributes: { path: '/metrics', verb: 'get' } });
    expect(evaluateSelfSubjectAccessReview(review, sa, policy).status).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "metrics" of ClusterRole "metrics" to Group "system:serviceaccounts"',
    });
    expect(
      evaluateSelfSubjectAccessReview(
        ssar({ nonResourceAttributes: { path: '/metrics', verb: 'post' } }),
        sa,
        policy,
      ).status,
    ).toEqual({ allowed: false });
  });

  it('allows system:masters without a reason', () => {
    const review = ssar({ resourceAttributes: { verb: '*', group: '*', resource: '*' } });
    expect(
      evaluateSelfSubjectAccessReview(review, { name: 'admin', groups: ['system:masters'] }, {})
        .status,
    ).toEqual({
      allowed: true,
    });
  });

  it('reports unresolvable bindings in the reason', () => {
    const review = ssar({ resourceAttributes: { verb: 'get', resource: 'pods' } });
    expect(
      evaluateSelfSubjectAccessReview(review, { name: 'bob', groups: [] }, policy).status,
    ).toEqual({
      allowed: false,
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    });
  });

  it('rejects a spec with neither or both attribute sets as kube-apiserver does', () => {
    for (const spec of [{}, { resourceAttributes: null }, undefined]) {
      try {
        evaluateSelfSubjectAccessReview(ssar(spec as never), sa, policy);
        expect.unreachable();
      } catch (error) {
        expect(StatusError.isInstance(error)).toBe(true);
        expect((error as StatusError).code).toBe(422);
        expect((error as StatusError).message).toBe(
          '.authorization.k8s.io "" is invalid: spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
        );
      }
    }
    expect(() =>
      evaluateSelfSubjectAccessReview(
        ssar({
          resourceAttributes: { verb: 'get' },
          nonResourceAttributes: { path: '/', verb: 'get' },
        }),
        sa,
        policy,
      ),
    ).toThrowError('exactly one of nonResourceAttributes or resourceAttributes must be specified');
  });
});

describe('evaluateSubjectAccessReview', () => {
  it('checks the user and groups of the spec, adding none', () => {
    const review = {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'jane',
        resourceAttributes: { verb: 'list', group: 'batch', resource: 'jobs', version: 'v1' },
      },
    };
    expect(evaluateSubjectAccessReview(review, policy)).toEqual({
      ...review,
      status: {
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "jobs" of ClusterRole "any-version" to User "jane"',
      },
    });
    const byGroup = {
      spec: {
        groups: ['system:serviceaccounts'],
        nonResourceAttributes: { path: '/metrics', verb: 'get' },
      },
    };
    expect(evaluateSubjectAccessReview(byGroup, policy).status.allowed).toBe(true);
    const saWithoutGroups = {
      spec: {
        user: 'system:serviceaccount:default:other',
        nonResourceAttributes: { path: '/metrics', verb: 'get' },
      },
    };
    expect(evaluateSubjectAccessReview(saWithoutGroups, policy).status).toEqual({ allowed: false });
  });

  it('rejects a spec without a subject or request as kube-apiserver does', () => {
    expect(() => evaluateSubjectAccessReview({ spec: {} }, policy)).toThrowError(
      '.authorization.k8s.io "" is invalid: [spec: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified, spec.user: Invalid value: "": at least one of user or group must be specified]',
    );
    expect(() =>
      evaluateSubjectAccessReview(
        { spec: { resourceAttributes: { verb: 'get' }, groups: [] } },
        policy,
      ),
    ).toThrowError(
      '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
  });
});
