import type { ObjectMeta } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { StatusError } from '../api/status-error.js';
import type { AuthenticatedUser } from './authenticated-user.js';
import { authorize } from './authorize.js';
import { stringField, stringList } from './json-fields.js';
import type { RbacPolicy } from './rbac-policy.js';
import type { RequestAttributes } from './request-attributes.js';

/** `spec.resourceAttributes` of an access review: the resource request to check. */
export interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  /** The API version; empty means every version (`*`). */
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  /** Accepted and echoed; RBAC does not look at selectors. */
  fieldSelector?: unknown;
  /** Accepted and echoed; RBAC does not look at selectors. */
  labelSelector?: unknown;
}

/** `spec.nonResourceAttributes` of an access review: the non-resource request to check. */
export interface NonResourceAttributes {
  path?: string;
  verb?: string;
}

/** The spec of a SelfSubjectAccessReview: exactly one of the two attribute sets. */
export interface SelfSubjectAccessReviewSpec {
  resourceAttributes?: ResourceAttributes | null;
  nonResourceAttributes?: NonResourceAttributes | null;
}

/** The spec of a SubjectAccessReview: the request, and the user to check it for. */
export interface SubjectAccessReviewSpec extends SelfSubjectAccessReviewSpec {
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

/** The answer of an access review, as kube-apiserver serializes it (empty fields left out). */
export interface SubjectAccessReviewStatus {
  allowed: boolean;
  /** Only present (true) when an authorizer denied explicitly; RBAC never does. */
  denied?: boolean;
  /** The authorizer's reason; absent when empty. */
  reason?: string;
  evaluationError?: string;
}

/** An `authorization.k8s.io/v1` SelfSubjectAccessReview, as posted by `kubectl auth can-i`. */
export interface SelfSubjectAccessReview {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: SelfSubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
}

/** An `authorization.k8s.io/v1` SubjectAccessReview: an access check for any user. */
export interface SubjectAccessReview {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: SubjectAccessReviewSpec;
  status?: SubjectAccessReviewStatus;
}

const reviewRef = (resource: string) => ({
  group: 'authorization.k8s.io',
  resource,
  // kube-apiserver validates the internal object, whose kind is empty by then; its message
  // starts `.authorization.k8s.io "" is invalid`, and so does this one.
  kind: '',
});

function specErrors(spec: Record<string, unknown>): FieldError[] {
  const hasResource = isJsonObject(spec.resourceAttributes);
  const hasNonResource = isJsonObject(spec.nonResourceAttributes);
  if (hasResource !== hasNonResource) return [];
  return [
    {
      type: 'FieldValueInvalid',
      field: 'spec',
      value: hasNonResource ? spec.nonResourceAttributes : null,
      detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
    },
  ];
}

function attributesOf(spec: Record<string, unknown>, user: AuthenticatedUser): RequestAttributes {
  const base = {
    user,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: '',
  };
  if (isJsonObject(spec.resourceAttributes)) {
    const attributes = spec.resourceAttributes;
    return {
      ...base,
      verb: stringField(attributes.verb),
      isResourceRequest: true,
      apiGroup: stringField(attributes.group),
      apiVersion: stringField(attributes.version) || '*',
      resource: stringField(attributes.resource),
      subresource: stringField(attributes.subresource),
      namespace: stringField(attributes.namespace),
      name: stringField(attributes.name),
    };
  }
  const attributes = isJsonObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : {};
  return {
    ...base,
    verb: stringField(attributes.verb),
    isResourceRequest: false,
    path: stringField(attributes.path),
  };
}

function statusFor(attributes: RequestAttributes, policy: RbacPolicy): SubjectAccessReviewStatus {
  const decision = authorize(attributes, policy);
  return {
    allowed: decision.allowed,
    ...(decision.reason !== '' ? { reason: decision.reason } : {}),
  };
}

/**
 * Answers a SelfSubjectAccessReview as kube-apiserver does: checks
 * `spec.resourceAttributes` (an empty `version` meaning every version) or
 * `spec.nonResourceAttributes` for `user`, the user who posted it, and returns the review with
 * `status` set (`allowed`, and `reason` when the authorizer gave one). Members of
 * `system:masters` are allowed everything. Only the attribute sets are validated; metadata is
 * not checked.
 *
 * @throws {StatusError} 422 Invalid when the spec has neither or both attribute sets, worded
 *   as kube-apiserver words it.
 */
export function evaluateSelfSubjectAccessReview<T extends SelfSubjectAccessReview>(
  review: T,
  user: AuthenticatedUser,
  policy: RbacPolicy,
): T & { status: SubjectAccessReviewStatus } {
  const spec = isJsonObject(review.spec) ? review.spec : {};
  const errors = specErrors(spec);
  if (errors.length > 0) {
    throw StatusError.invalid(reviewRef('selfsubjectaccessreviews'), '', errors);
  }
  return { ...review, status: statusFor(attributesOf(spec, user), policy) };
}

/**
 * Answers a SubjectAccessReview as kube-apiserver does: the user checked is exactly
 * `spec.user` with exactly `spec.groups` (nothing is added, not even
 * `system:authenticated`), then as {@link evaluateSelfSubjectAccessReview}.
 *
 * @throws {StatusError} 422 Invalid when the spec has neither or both attribute sets, or
 *   neither a user nor a group, worded as kube-apiserver words it.
 */
export function evaluateSubjectAccessReview<T extends SubjectAccessReview>(
  review: T,
  policy: RbacPolicy,
): T & { status: SubjectAccessReviewStatus } {
  const spec = isJsonObject(review.spec) ? review.spec : {};
  const name = stringField(spec.user);
  const groups = stringList(spec.groups);
  const errors = specErrors(spec);
  if (name === '' && groups.length === 0) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.user',
      value: name,
      detail: 'at least one of user or group must be specified',
    });
  }
  if (errors.length > 0) {
    throw StatusError.invalid(reviewRef('subjectaccessreviews'), '', errors);
  }
  const uid = stringField(spec.uid);
  const user: AuthenticatedUser = { name, groups, ...(uid !== '' ? { uid } : {}) };
  return { ...review, status: statusFor(attributesOf(spec, user), policy) };
}
