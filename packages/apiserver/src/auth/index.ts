export {
  evaluateSelfSubjectAccessReview,
  evaluateSubjectAccessReview,
  type NonResourceAttributes,
  type ResourceAttributes,
  type SelfSubjectAccessReview,
  type SelfSubjectAccessReviewSpec,
  type SubjectAccessReview,
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
} from './access-review.js';
export {
  type AuthenticatedUser,
  anonymousUsername,
  authenticatedGroup,
  isServiceAccountUsername,
  serviceAccountUser,
  serviceAccountUsername,
  superuserGroup,
  type UserInfo,
  unauthenticatedGroup,
} from './authenticated-user.js';
export { type AuthorizationDecision, authorize } from './authorize.js';
export { compactRules, compactString, escalationMessage } from './confirm-no-escalation.js';
export { forbiddenError, forbiddenMessage } from './forbidden-error.js';
export {
  type DistinctHeaders,
  type ImpersonationRequest,
  impersonatedUser,
  impersonationRequests,
} from './impersonation.js';
export { openPolicy, openPolicyPrefix, type ServedResource } from './open-policy.js';
export type {
  AggregationRule,
  ClusterRole,
  PolicyRule,
  RbacClusterRoleBinding,
  RbacPolicy,
  RbacRole,
  RbacRoleBinding,
  RoleRef,
  Subject,
} from './rbac-policy.js';
export {
  anonymousUser,
  type RequestAttributes,
  type RequestQuery,
  requestAttributesFrom,
} from './request-attributes.js';
export {
  apiGroupMatches,
  nonResourceURLMatches,
  resourceMatches,
  resourceNameMatches,
  ruleAllows,
  verbMatches,
} from './rule-allows.js';
export { PolicyIndex } from './rule-resolver.js';
export { type AtomicRule, breakdownRule, uncoveredRules } from './rules-cover.js';
export {
  evaluateSelfSubjectRulesReview,
  type NonResourceRule,
  type ResourceRule,
  rulesFor,
  type SelfSubjectRulesReview,
  type SubjectRulesReviewStatus,
} from './rules-review.js';
export {
  evaluateSelfSubjectReview,
  type SelfSubjectReview,
  userInfoOf,
} from './self-subject-review.js';
export { evaluateTokenReview } from './token-review.js';
