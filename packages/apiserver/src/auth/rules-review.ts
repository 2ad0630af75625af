import type { ObjectMeta } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { AuthenticatedUser } from './authenticated-user.js';
import { aggregateMessage } from './go-format.js';
import { stringField, stringList } from './json-fields.js';
import type { RbacPolicy } from './rbac-policy.js';
import { PolicyIndex, resolveRules } from './rule-resolver.js';

/** A resource rule of a rules review (`authorization.k8s.io/v1` ResourceRule). */
export interface ResourceRule {
  verbs: string[];
  /** Left out when empty. */
  apiGroups?: string[];
  /** Left out when empty. */
  resources?: string[];
  /** Left out when empty. */
  resourceNames?: string[];
}

/** A non-resource rule of a rules review (`authorization.k8s.io/v1` NonResourceRule). */
export interface NonResourceRule {
  verbs: string[];
  /** Left out when empty. */
  nonResourceURLs?: string[];
}

/** The status of a SelfSubjectRulesReview. */
export interface SubjectRulesReviewStatus {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** Always false: RBAC knows every rule. */
  incomplete: boolean;
  /** Why some bindings contributed nothing (a missing role, a bad roleRef kind); absent when none. */
  evaluationError?: string;
}

/** An `authorization.k8s.io/v1` SelfSubjectRulesReview, as posted by `kubectl auth can-i --list`. */
export interface SelfSubjectRulesReview {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: { namespace?: string };
  status?: SubjectRulesReviewStatus;
}

const nonEmpty = <K extends string>(key: K, values: string[]): { [P in K]?: string[] } =>
  (values.length > 0 ? { [key]: values } : {}) as { [P in K]?: string[] };

/**
 * The rules RBAC grants `user` in `namespace` (`''` for cluster-wide bindings only), as
 * kube-apiserver's RBAC authorizer lists them: every rule of every applicable
 * ClusterRoleBinding, then of every applicable RoleBinding in `namespace`, in that order and
 * unmerged. A rule with resources becomes a resource rule, one with non-resource URLs a
 * non-resource rule (one with both becomes both). Bindings whose role cannot be resolved add
 * to `evaluationError` instead.
 *
 * Like kube-apiserver, this lists RBAC rules only: membership of `system:masters`, which
 * {@link authorize} honours, adds no rule. Never throws.
 */
export function rulesFor(
  user: AuthenticatedUser,
  namespace: string,
  policy: RbacPolicy,
): SubjectRulesReviewStatus {
  const resourceRules: ResourceRule[] = [];
  const nonResourceRules: NonResourceRule[] = [];
  const errors: string[] = [];
  for (const resolved of resolveRules(user, namespace, new PolicyIndex(policy))) {
    if ('error' in resolved) {
      errors.push(resolved.error);
      continue;
    }
    const { rule } = resolved;
    const verbs = stringList(rule.verbs);
    const resources = stringList(rule.resources);
    if (resources.length > 0) {
      resourceRules.push({
        verbs,
        ...nonEmpty('apiGroups', stringList(rule.apiGroups)),
        resources,
        ...nonEmpty('resourceNames', stringList(rule.resourceNames)),
      });
    }
    const urls = stringList(rule.nonResourceURLs);
    if (urls.length > 0) nonResourceRules.push({ verbs, nonResourceURLs: urls });
  }
  return {
    resourceRules,
    nonResourceRules,
    incomplete: false,
    ...(errors.length > 0 ? { evaluationError: aggregateMessage(errors) } : {}),
  };
}

/**
 * Answers a SelfSubjectRulesReview as kube-apiserver does: the rules of {@link rulesFor} for
 * `user` in `spec.namespace`. Like kube-apiserver, the answer is a fresh review whose spec is
 * empty (the namespace is not echoed).
 *
 * @throws {StatusError} 400 `no namespace on request` when `spec.namespace` is empty.
 */
export function evaluateSelfSubjectRulesReview(
  review: SelfSubjectRulesReview,
  user: AuthenticatedUser,
  policy: RbacPolicy,
): SelfSubjectRulesReview & { status: SubjectRulesReviewStatus } {
  const spec = isJsonObject(review.spec) ? review.spec : {};
  const namespace = stringField(spec.namespace);
  if (namespace === '') throw StatusError.badRequest('no namespace on request');
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    metadata: {},
    spec: {},
    status: rulesFor(user, namespace, policy),
  };
}
