import { describe, expect, it } from 'vitest';
import { type AuthenticatedUser, serviceAccountUser } from './authenticated-user.js';
import { authorize } from './authorize.js';
import type { ClusterRole, RbacPolicy } from './rbac-policy.js';
import { type RequestAttributes, requestAttributesFrom } from './request-attributes.js';

const jane: AuthenticatedUser = { name: 'jane', groups: ['devs', 'system:authenticated'] };
const robot = serviceAccountUser('ci', 'robot');

const request = (
  method: string,
  path: string,
  user: AuthenticatedUser = jane,
  query?: string,
): RequestAttributes => requestAttributesFrom(method, path, query, user);

const podReader: ClusterRole = {
  metadata: { name: 'pod-reader' },
  rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }],
};

describe('authorize: bindings and scope', () => {
  const policy: RbacPolicy = {
    roles: [
      {
        metadata: { name: 'deployer', namespace: 'team-a' },
        rules: [{ verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'] }],
      },
    ],
    clusterRoles: [podReader],
    roleBindings: [
      {
        metadata: { name: 'jane-deployer', namespace: 'team-a' },
        subjects: [{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' }],
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deployer' },
      },
      {
        metadata: { name: 'jane-pods', namespace: 'team-a' },
        subjects: [{ kind: 'User', name: 'jane' }],
        roleRef: { kind: 'ClusterRole', name: 'pod-reader' },
      },
    ],
  };

  it('grants a RoleBinding only in its own namespace', () => {
    const allowed = authorize(
      request('POST', '/apis/apps/v1/namespaces/team-a/deployments'),
      policy,
    );
    expect(allowed).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "jane-deployer/team-a" of Role "deployer" to User "jane"',
    });
    expect(
      authorize(request('POST', '/apis/apps/v1/namespaces/team-b/deployments'), policy),
    ).toEqual({
      allowed: false,
      reason: '',
    });
    expect(authorize(request('GET', '/apis/apps/v1/deployments'), policy).allowed).toBe(false);
  });

  it('lets a RoleBinding grant a ClusterRole in its namespace only', () => {
    expect(authorize(request('GET', '/api/v1/namespaces/team-a/pods/web'), policy)).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "jane-pods/team-a" of ClusterRole "pod-reader" to User "jane"',
    });
    expect(authorize(request('GET', '/api/v1/namespaces/team-b/pods/web'), policy).allowed).toBe(
      false,
    );
    expect(authorize(request('GET', '/api/v1/pods'), policy).allowed).toBe(false);
  });

  it('grants a ClusterRoleBinding everywhere, cluster scope included', () => {
    const cluster: RbacPolicy = {
      clusterRoles: [podReader],
      clusterRoleBindings: [
        {
          metadata: { name: 'read-pods' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'ClusterRole', name: 'pod-reader' },
        },
      ],
    };
    const reason =
      'RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "jane"';
    expect(authorize(request('GET', '/api/v1/namespaces/x/pods'), cluster)).toEqual({
      allowed: true,
      reason,
    });
    expect(authorize(request('GET', '/api/v1/pods', jane, 'watch=1'), cluster)).toEqual({
      allowed: true,
      reason,
    });
    expect(authorize(request('DELETE', '/api/v1/namespaces/x/pods/p'), cluster).allowed).toBe(
      false,
    );
  });

  it('does not let a Role in another namespace be referenced', () => {
    const crossNamespace: RbacPolicy = {
      roles: [
        {
          metadata: { name: 'r', namespace: 'a' },
          rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        },
      ],
      roleBindings: [
        {
          metadata: { name: 'b', namespace: 'b' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'Role', name: 'r' },
        },
      ],
    };
    expect(authorize(request('GET', '/api/v1/namespaces/b/pods'), crossNamespace)).toEqual({
      allowed: false,
      reason: 'RBAC: role.rbac.authorization.k8s.io "r" not found',
    });
  });
});

describe('authorize: subjects', () => {
  const bind = (subjects: unknown[], namespace?: string): RbacPolicy =>
    ({
      clusterRoles: [podReader],
      ...(namespace === undefined
        ? {
            clusterRoleBindings: [
              {
                metadata: { name: 'crb' },
                subjects,
                roleRef: { kind: 'ClusterRole', name: 'pod-reader' },
              },
            ],
          }
        : {
            roleBindings: [
              {
                metadata: { name: 'rb', namespace },
                subjects,
                roleRef: { kind: 'ClusterRole', name: 'pod-reader' },
              },
            ],
          }),
    }) as RbacPolicy;

  it('matches groups by membership', () => {
    expect(
      authorize(request('GET', '/api/v1/pods'), bind([{ kind: 'Group', name: 'devs' }])),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "pod-reader" to Group "devs"',
    });
    expect(
      authorize(request('GET', '/api/v1/pods'), bind([{ kind: 'Group', name: 'ops' }])).allowed,
    ).toBe(false);
    expect(
      authorize(
        request('GET', '/api/v1/pods', robot),
        bind([{ kind: 'Group', name: 'system:serviceaccounts:ci' }]),
      ).allowed,
    ).toBe(true);
  });

  it('names the first subject that matches', () => {
    const subjects = [
      { kind: 'User', name: 'bob' },
      { kind: 'Group', name: 'system:authenticated' },
      { kind: 'User', name: 'jane' },
    ];
    expect(authorize(request('GET', '/api/v1/pods'), bind(subjects)).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "pod-reader" to Group "system:authenticated"',
    );
  });

  it('matches a service account by namespace and name', () => {
    expect(
      authorize(
        request('GET', '/api/v1/pods', robot),
        bind([{ kind: 'ServiceAccount', name: 'robot', namespace: 'ci' }]),
      ),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "crb" of ClusterRole "pod-reader" to ServiceAccount "robot/ci"',
    });
    expect(
      authorize(
        request('GET', '/api/v1/pods', robot),
        bind([{ kind: 'ServiceAccount', name: 'robot', namespace: 'prod' }]),
      ).allowed,
    ).toBe(false);
    // a user named like the account's short name is not the account
    expect(
      authorize(
        request('GET', '/api/v1/pods', { name: 'robot', groups: [] }),
        bind([{ kind: 'User', name: 'robot' }]),
      ).allowed,
    ).toBe(true);
    expect(
      authorize(
        request('GET', '/api/v1/pods', { name: 'robot', groups: [] }),
        bind([{ kind: 'ServiceAccount', name: 'robot', namespace: 'ci' }]),
      ).allowed,
    ).toBe(false);
  });

  it('defaults a service account subject to the RoleBinding namespace, not in a ClusterRoleBinding', () => {
    expect(
      authorize(
        request('GET', '/api/v1/namespaces/ci/pods', robot),
        bind([{ kind: 'ServiceAccount', name: 'robot' }], 'ci'),
      ),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "rb/ci" of ClusterRole "pod-reader" to ServiceAccount "robot/ci"',
    });
    expect(
      authorize(
        request('GET', '/api/v1/namespaces/ci/pods', robot),
        bind([{ kind: 'ServiceAccount', name: 'robot' }]),
      ).allowed,
    ).toBe(false);
    // an account of another namespace can be bound in this one
    const other = serviceAccountUser('tools', 'robot');
    expect(
      authorize(
        request('GET', '/api/v1/namespaces/ci/pods', other),
        bind([{ kind: 'ServiceAccount', name: 'robot', namespace: 'tools' }], 'ci'),
      ).reason,
    ).toBe(
      'RBAC: allowed by RoleBinding "rb/ci" of ClusterRole "pod-reader" to ServiceAccount "robot/tools"',
    );
  });

  it('ignores unknown subject kinds', () => {
    expect(
      authorize(request('GET', '/api/v1/pods'), bind([{ kind: 'Robot', name: 'jane' }])).allowed,
    ).toBe(false);
  });
});

describe('authorize: superuser', () => {
  it('allows system:masters everything with an empty reason', () => {
    const admin: AuthenticatedUser = {
      name: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    };
    expect(authorize(request('DELETE', '/api/v1/nodes/n1', admin), {})).toEqual({
      allowed: true,
      reason: '',
    });
    expect(authorize(request('POST', '/logs/x', admin), {})).toEqual({ allowed: true, reason: '' });
  });

  it('does not treat a user named system:masters as the group', () => {
    expect(
      authorize(request('GET', '/api/v1/pods', { name: 'system:masters', groups: [] }), {}).allowed,
    ).toBe(false);
  });
});

describe('authorize: non-resource URLs', () => {
  it('grants paths through ClusterRoleBindings', () => {
    const policy: RbacPolicy = {
      clusterRoles: [
        {
          metadata: { name: 'health' },
          rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/healthz/*'] }],
        },
      ],
      clusterRoleBindings: [
        {
          metadata: { name: 'health' },
          subjects: [{ kind: 'Group', name: 'system:authenticated' }],
          roleRef: { kind: 'ClusterRole', name: 'health' },
        },
      ],
    };
    expect(authorize(request('GET', '/healthz/etcd'), policy).allowed).toBe(true);
    expect(authorize(request('POST', '/healthz'), policy).allowed).toBe(false);
    expect(authorize(request('GET', '/metrics'), policy).allowed).toBe(false);
  });
});

describe('authorize: aggregation', () => {
  const base = (
    name: string,
    labels: Record<string, string>,
    resources: string[],
  ): ClusterRole => ({
    metadata: { name, labels },
    rules: [{ verbs: ['get'], apiGroups: [''], resources }],
  });
  const bindTo = (role: string): RbacPolicy['clusterRoleBindings'] => [
    {
      metadata: { name: 'b' },
      subjects: [{ kind: 'User', name: 'jane' }],
      roleRef: { kind: 'ClusterRole', name: role },
    },
  ];

  it('gathers the rules of the ClusterRoles its selectors match, ignoring its own', () => {
    const policy: RbacPolicy = {
      clusterRoles: [
        {
          metadata: { name: 'monitoring' },
          aggregationRule: {
            clusterRoleSelectors: [
              { matchLabels: { 'example.com/aggregate-to-monitoring': 'true' } },
            ],
          },
          rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        },
        base('a', { 'example.com/aggregate-to-monitoring': 'true' }, ['pods']),
        base('b', { 'example.com/aggregate-to-monitoring': 'false' }, ['secrets']),
        base('c', { 'example.com/aggregate-to-monitoring': 'true' }, ['services']),
      ],
      clusterRoleBindings: bindTo('monitoring'),
    };
    expect(authorize(request('GET', '/api/v1/namespaces/x/pods/p'), policy).allowed).toBe(true);
    expect(authorize(request('GET', '/api/v1/namespaces/x/services/s'), policy).allowed).toBe(true);
    expect(authorize(request('GET', '/api/v1/namespaces/x/secrets/s'), policy).allowed).toBe(false);
    expect(authorize(request('DELETE', '/api/v1/namespaces/x/pods/p'), policy).allowed).toBe(false);
  });

  it('follows chains of aggregated roles, as the controller settles them', () => {
    const policy: RbacPolicy = {
      clusterRoles: [
        {
          metadata: { name: 'admin' },
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { to: 'admin' } }] },
        },
        {
          metadata: { name: 'edit', labels: { to: 'admin' } },
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { to: 'edit' } }] },
        },
        base('view', { to: 'edit' }, ['configmaps']),
      ],
      clusterRoleBindings: bindTo('admin'),
    };
    expect(authorize(request('GET', '/api/v1/namespaces/x/configmaps/c'), policy).allowed).toBe(
      true,
    );
  });

  it('stops at cycles and survives bad selectors', () => {
    const policy: RbacPolicy = {
      clusterRoles: [
        {
          metadata: { name: 'x', labels: { ring: 'y' } },
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { ring: 'x' } }] },
        },
        {
          metadata: { name: 'y', labels: { ring: 'x' } },
          aggregationRule: {
            clusterRoleSelectors: [
              { matchLabels: { ring: 'y' } },
              { matchExpressions: [{ key: 'k', operator: 'Sideways' }] },
              null as never,
            ],
          },
        },
      ],
      clusterRoleBindings: bindTo('x'),
    };
    expect(authorize(request('GET', '/api/v1/pods'), policy)).toEqual({
      allowed: false,
      reason: '',
    });
  });

  it('matches expressions and empty selectors', () => {
    const policy: RbacPolicy = {
      clusterRoles: [
        {
          metadata: { name: 'everything' },
          aggregationRule: {
            clusterRoleSelectors: [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }],
          },
        },
        base('p', { tier: 'x' }, ['pods']),
        base('q', {}, ['secrets']),
      ],
      clusterRoleBindings: bindTo('everything'),
    };
    expect(authorize(request('GET', '/api/v1/pods'), policy).allowed).toBe(false);
    expect(authorize(request('GET', '/api/v1/namespaces/n/pods/a'), policy).allowed).toBe(true);
    expect(authorize(request('GET', '/api/v1/namespaces/n/secrets/a'), policy).allowed).toBe(false);
  });
});

describe('authorize: malformed policy', () => {
  it('grants nothing and never throws', () => {
    const policy = {
      roles: [null, 5, { metadata: { name: 'no-rules', namespace: 'n' } }, { rules: 'nope' }],
      clusterRoles: [{ metadata: { name: 'bad-rules' }, rules: [null, 'x', { verbs: 'get' }] }, {}],
      roleBindings: [
        {
          metadata: { name: 'no-subjects', namespace: 'n' },
          roleRef: { kind: 'Role', name: 'no-rules' },
        },
        {
          metadata: { name: 'no-ref', namespace: 'n' },
          subjects: [{ kind: 'User', name: 'jane' }],
        },
        {
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'ClusterRole', name: 'bad-rules' },
        },
        {
          metadata: { name: 'subjects-not-array', namespace: 'n' },
          subjects: { kind: 'User', name: 'jane' },
          roleRef: { kind: 'ClusterRole', name: 'bad-rules' },
        },
      ],
      clusterRoleBindings: [
        null,
        {
          metadata: { name: 'odd-kind' },
          subjects: [null, { kind: 'User', name: 'jane' }],
          roleRef: { kind: 'Policy', name: 'x' },
        },
        {
          metadata: { name: 'bad' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'ClusterRole', name: 'bad-rules' },
        },
        {
          metadata: { name: 'missing' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'ClusterRole', name: 'gone' },
        },
        {
          metadata: { name: 'role-from-crb' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'Role', name: 'no-rules' },
        },
      ],
    } as unknown as RbacPolicy;
    expect(authorize(request('GET', '/api/v1/namespaces/n/pods/p'), policy)).toEqual({
      allowed: false,
      reason:
        'RBAC: [unsupported role reference kind: "Policy", clusterrole.rbac.authorization.k8s.io "gone" not found, role.rbac.authorization.k8s.io "no-rules" not found, unsupported role reference kind: ""]',
    });
    expect(
      authorize(request('GET', '/api/v1/pods'), { roles: 'x' } as unknown as RbacPolicy),
    ).toEqual({
      allowed: false,
      reason: '',
    });
    expect(authorize(request('GET', '/api/v1/pods'), {})).toEqual({ allowed: false, reason: '' });
  });

  it('still allows through a good binding next to broken ones', () => {
    const policy: RbacPolicy = {
      clusterRoles: [podReader],
      clusterRoleBindings: [
        {
          metadata: { name: 'broken' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'ClusterRole', name: 'gone' },
        },
        {
          metadata: { name: 'ok' },
          subjects: [{ kind: 'User', name: 'jane' }],
          roleRef: { kind: 'ClusterRole', name: 'pod-reader' },
        },
      ],
    };
    expect(authorize(request('GET', '/api/v1/pods'), policy)).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "ok" of ClusterRole "pod-reader" to User "jane"',
    });
  });
});
