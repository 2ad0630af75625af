import { isJsonObject } from '@ops/api';
import {
  type AuthenticatedUser,
  evaluateSelfSubjectAccessReview,
  evaluateSelfSubjectReview,
  evaluateSelfSubjectRulesReview,
  evaluateSubjectAccessReview,
  type RbacPolicy,
} from '../auth/index.js';
import type { Json } from '../json/json.js';
import type { ResourceType } from '../registry/resource-type.js';

/**
 * The answer to a review: who the caller is (`SelfSubjectReview`), or an access review
 * (`SelfSubjectAccessReview`, `SelfSubjectRulesReview`, `SubjectAccessReview`), evaluated
 * against `policy`: the one the server decides requests with (with RBAC off, the stored
 * objects plus `openPolicy`'s grants), so a review answers as the request would be.
 */
export function reviewAccess(
  type: ResourceType,
  body: unknown,
  user: AuthenticatedUser,
  policy: RbacPolicy,
): Json {
  if (type.plural === 'selfsubjectreviews')
    return evaluateSelfSubjectReview(user) as unknown as Json;
  const review = isJsonObject(body) ? body : {};
  if (type.plural === 'selfsubjectaccessreviews')
    return evaluateSelfSubjectAccessReview(review, user, policy) as Json;
  if (type.plural === 'selfsubjectrulesreviews')
    return evaluateSelfSubjectRulesReview(review, user, policy) as unknown as Json;
  return evaluateSubjectAccessReview(review, policy) as Json;
}
