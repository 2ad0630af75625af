import { isJsonObject } from '@ops/api';
import {
  type AuthenticatedUser,
  evaluateSelfSubjectAccessReview,
  evaluateSelfSubjectReview,
  evaluateSelfSubjectRulesReview,
  evaluateSubjectAccessReview,
  evaluateTokenReview,
  type RbacPolicy,
} from '../../auth/index.js';
import type { Json } from '../../json/json.js';
import type { ResourceType } from '../../registry/resource-type.js';
import type { TokenAuthenticator } from './token-authenticator.js';

/**
 * The answer to a review: who the caller is (`SelfSubjectReview`), who a token is
 * (`TokenReview`, by the server's own `tokens` authenticator), or an access review
 * (`SelfSubjectAccessReview`, `SelfSubjectRulesReview`, `SubjectAccessReview`), evaluated
 * against `access.policy()`: the one the server decides requests with (with RBAC off, the
 * stored objects plus `openPolicy`'s grants), so a review answers as the request would be.
 */
export function reviewAccess(
  type: ResourceType,
  body: unknown,
  user: AuthenticatedUser,
  access: { policy(): RbacPolicy; readonly tokens: TokenAuthenticator },
): Json {
  const { tokens } = access;
  if (type.plural === 'tokenreviews')
    return evaluateTokenReview(body, (token) => tokens.userOf(token), tokens.issuer);
  if (type.plural === 'selfsubjectreviews')
    return evaluateSelfSubjectReview(user) as unknown as Json;
  const review = isJsonObject(body) ? body : {};
  const policy = access.policy();
  if (type.plural === 'selfsubjectaccessreviews')
    return evaluateSelfSubjectAccessReview(review, user, policy) as Json;
  if (type.plural === 'selfsubjectrulesreviews')
    return evaluateSelfSubjectRulesReview(review, user, policy) as unknown as Json;
  return evaluateSubjectAccessReview(review, policy) as Json;
}
