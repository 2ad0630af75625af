import type { AuthenticatedUser } from './authenticated-user.js';

/** A SelfSubjectReview (authentication.k8s.io/v1) as the server answers it. */
export interface SelfSubjectReview {
  apiVersion: 'authentication.k8s.io/v1';
  kind: 'SelfSubjectReview';
  metadata: { creationTimestamp: null };
  status: {
    userInfo: {
      username: string;
      uid?: string;
      groups: string[];
      extra?: Record<string, string[]>;
    };
  };
}

/**
 * Answers a SelfSubjectReview (`kubectl auth whoami`) as kube-apiserver does: whatever the
 * request holds, the status is the user the request authenticated as (or impersonates) — its
 * name, uid when it has one, its groups in order, and its extra attributes when it has any. Never stored; needs no rule beyond `system:basic-user`.
 */
export function evaluateSelfSubjectReview(user: AuthenticatedUser): SelfSubjectReview {
  return {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'SelfSubjectReview',
    metadata: { creationTimestamp: null },
    status: { userInfo: userInfoOf(user) },
  };
}

/**
 * A user as the API carries it (`authentication.k8s.io/v1` `UserInfo`): its name, uid when
 * it has one, its groups in order, and its extra attributes when it has any.
 */
export function userInfoOf(user: AuthenticatedUser): SelfSubjectReview['status']['userInfo'] {
  return {
    username: user.name,
    ...(user.uid === undefined ? {} : { uid: user.uid }),
    groups: [...user.groups],
    ...(user.extra === undefined || Object.keys(user.extra).length === 0
      ? {}
      : {
          extra: Object.fromEntries(
            Object.entries(user.extra).map(([key, values]) => [key, [...values]]),
          ),
        }),
  };
}
