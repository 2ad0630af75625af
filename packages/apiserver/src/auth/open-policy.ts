import { authenticatedGroup, unauthenticatedGroup } from './authenticated-user.js';
import type { ClusterRole, RbacClusterRoleBinding, RbacPolicy } from './rbac-policy.js';

/** The prefix of the names of the ClusterRoles and bindings {@link openPolicy} adds. */
export const openPolicyPrefix = 'ops:local-server:';

/** A resource the server serves: its API group and plural name. */
export interface ServedResource {
  group: string;
  plural: string;
}

/** The ordinary API verbs: what anonymous callers may use without RBAC (no escalate, bind, impersonate). */
const ordinaryVerbs = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
];
const readVerbs = ['get', 'list', 'watch'];
/** Groups anonymous callers may only read without RBAC: writing them would grant rights or expose Secrets. */
const readOnlyGroups = new Set(['rbac.authorization.k8s.io', 'admissionregistration.k8s.io']);

const rbacGroup = 'rbac.authorization.k8s.io';

type Rules = NonNullable<ClusterRole['rules']>;

function grant(name: string, group: string, rules: Rules): [ClusterRole, RbacClusterRoleBinding] {
  const fullName = `${openPolicyPrefix}${name}`;
  return [
    { metadata: { name: fullName }, rules },
    {
      metadata: { name: fullName },
      roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: fullName },
      subjects: [{ kind: 'Group', apiGroup: rbacGroup, name: group }],
    },
  ];
}

/** The rules anonymous callers get without RBAC, for the resources served. */
function anonymousRules(served: readonly ServedResource[]): Rules {
  const byGroup = new Map<string, Set<string>>();
  for (const { group, plural } of served) {
    if (group === '' && plural === 'secrets') continue;
    const resources = byGroup.get(group) ?? new Set<string>();
    resources.add(plural).add(`${plural}/status`).add(`${plural}/scale`);
    if (group === '' && plural === 'namespaces') resources.add('namespaces/finalize');
    byGroup.set(group, resources);
  }
  const rules: Rules = [...byGroup].map(([group, resources]) => ({
    apiGroups: [group],
    resources: [...resources].sort(),
    verbs: readOnlyGroups.has(group) ? readVerbs : ordinaryVerbs,
  }));
  rules.push({ nonResourceURLs: ['*'], verbs: ['get'] });
  return rules;
}

/**
 * The policy the local server decides with when RBAC is not enforced: `policy` (the RBAC
 * objects in the store) plus two ClusterRoles and their bindings, named with
 * {@link openPolicyPrefix} and never stored:
 *
 * - `system:authenticated` may do everything (as with kube-apiserver's `AlwaysAllow`);
 * - `system:unauthenticated` (anonymous callers: plain-HTTP clients such as kubectl, which
 *   sends no token over HTTP) may use the ordinary verbs on every resource in `served` but
 *   Secrets, may only read RBAC objects and admission webhook configurations (a webhook would
 *   receive the Secrets others write), and may `get` every non-resource path. So no anonymous
 *   caller reads a Secret, gets a ServiceAccount token (`serviceaccounts/token` is not
 *   granted), impersonates anyone, escalates or binds.
 *
 * Pure; `policy` is not changed.
 */
export function openPolicy(policy: RbacPolicy, served: readonly ServedResource[]): RbacPolicy {
  const [everything, everyoneAuthenticated] = grant('authenticated', authenticatedGroup, [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ]);
  const [anonymous, anonymousBinding] = grant(
    'unauthenticated',
    unauthenticatedGroup,
    anonymousRules(served),
  );
  return {
    ...policy,
    clusterRoles: [everything, anonymous, ...(policy.clusterRoles ?? [])],
    clusterRoleBindings: [
      everyoneAuthenticated,
      anonymousBinding,
      ...(policy.clusterRoleBindings ?? []),
    ],
  };
}
