import {
  type AuthenticatedUser,
  evaluateSelfSubjectAccessReview,
  evaluateSelfSubjectReview,
  evaluateSelfSubjectRulesReview,
  evaluateSubjectAccessReview,
  type RbacPolicy,
} from '../auth/index.js';
import { isObject, type Json } from '../cluster/json.js';
import type { ResourceType } from '../registry/resource-type.js';

/**
 * The answer to a review: who the caller is (`SelfSubjectReview`), or an access review
 * (`SelfSubjectAccessReview`, `SelfSubjectRulesReview`,
 * `SubjectAccessReview`), evaluated against `policy`, or, with RBAC off (`policy`
 * undefined), against a policy that allows everything, as a server without RBAC answers.
 */
export function reviewAccess(
  type: ResourceType,
  body: unknown,
  user: AuthenticatedUser,
  policy: RbacPolicy | undefined,
): Json {
  if (type.plural === 'selfsubjectreviews')
    return evaluateSelfSubjectReview(user) as unknown as Json;
  const review = isObject(body) ? body : {};
  const everything = {
    roles: [],
    clusterRoles: [
      {
        metadata: { name: 'all' },
        rules: [
          { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
          { nonResourceURLs: ['*'], verbs: ['*'] },
        ],
      },
    ],
    roleBindings: [],
    clusterRoleBindings: [
      {
        metadata: { name: 'all' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'all' },
        subjects: [
          { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:authenticated' },
          {
            kind: 'Group',
            apiGroup: 'rbac.authorization.k8s.io',
            name: 'system:unauthenticated',
          },
        ],
      },
    ],
  } as unknown as RbacPolicy;
  const effective = policy ?? everything;
  if (type.plural === 'selfsubjectaccessreviews')
    return evaluateSelfSubjectAccessReview(review, user, effective) as Json;
  if (type.plural === 'selfsubjectrulesreviews')
    return evaluateSelfSubjectRulesReview(review, user, effective) as unknown as Json;
  return evaluateSubjectAccessReview(review, effective) as Json;
}
