/**
 * `authentication.k8s.io/v1` `UserInfo`: who made a request, as the API carries it (in an
 * AdmissionReview's `request.userInfo`, a TokenReview's status, a SelfSubjectReview). Every
 * field is optional on the wire: an anonymous request may carry only `username`.
 */
export interface UserInfo {
  /** The user's name: `jane`, `system:serviceaccount:default:builder`, `system:anonymous`. */
  username?: string;
  /** A value that identifies the user across time, where the authenticator has one. */
  uid?: string;
  /** The groups the user belongs to; RBAC `Group` subjects match against these. */
  groups?: string[];
  /** Whatever else the authenticator knows about the user, by key. */
  extra?: Record<string, string[]>;
}
