/**
 * Who is making a request, as the authenticator hands it to the authorizer (`user.Info` of
 * k8s.io/apiserver): the server's own record, not an API object. Where the API carries the
 * user (an AdmissionReview's `userInfo`), it is `authentication.k8s.io/v1` `UserInfo` of
 * `@ops/api`, with `username` for {@link AuthenticatedUser.name}.
 */
export interface AuthenticatedUser {
  /** The user name, e.g. `jane` or `system:serviceaccount:default:builder`. */
  name: string;
  /** Every group the user is a member of; RBAC Group subjects match against these. */
  groups: readonly string[];
  /** A unique id for the user; carried along, never used to decide. */
  uid?: string;
  /**
   * Extra attributes of the user (`user.Info.GetExtra()`), e.g. from `Impersonate-Extra-*`
   * headers: keys are lower case; carried along (SelfSubjectReview shows them), never used
   * by RBAC to decide.
   */
  extra?: Readonly<Record<string, readonly string[]>>;
}

/**
 * The former name of {@link AuthenticatedUser}, kept so existing imports compile.
 * @deprecated Use `AuthenticatedUser`; `UserInfo` of `@ops/api` is the API object.
 */
export type UserInfo = AuthenticatedUser;

/** The group whose members are allowed everything, as kube-apiserver's privileged group. */
export const superuserGroup = 'system:masters';

/** The group every authenticated user belongs to. */
export const authenticatedGroup = 'system:authenticated';

/** The group of requests that carry no credentials (kube's `user.AllUnauthenticated`). */
export const unauthenticatedGroup = 'system:unauthenticated';

/** The user name of requests that carry no credentials (kube's `user.Anonymous`). */
export const anonymousUsername = 'system:anonymous';

const serviceAccountPrefix = 'system:serviceaccount:';

/**
 * The user name of a service account: `system:serviceaccount:<namespace>:<name>`.
 * Assumes neither part is empty; it does not check.
 */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `${serviceAccountPrefix}${namespace}:${name}`;
}

/**
 * The user a service account's token authenticates as: named
 * `system:serviceaccount:<namespace>:<name>`, in the groups `system:serviceaccounts`,
 * `system:serviceaccounts:<namespace>` and `system:authenticated`, in that order.
 */
export function serviceAccountUser(namespace: string, name: string): AuthenticatedUser {
  return {
    name: serviceAccountUsername(namespace, name),
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, authenticatedGroup],
  };
}

/**
 * Whether `username` is the service account `name` in `namespace`, compared exactly as
 * kube-apiserver does (an exact match of the whole user name).
 */
export function isServiceAccountUsername(
  username: string,
  namespace: string,
  name: string,
): boolean {
  return username === serviceAccountUsername(namespace, name);
}
