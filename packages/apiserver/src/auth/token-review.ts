import { isJsonObject } from '@ops/api';
import type { Json } from '../json/json.js';
import type { AuthenticatedUser } from './authenticated-user.js';
import { userInfoOf } from './self-subject-review.js';

/**
 * Answers a TokenReview (`authentication.k8s.io/v1`) as kube-apiserver does for the
 * webhook-token authenticators of other servers (controller-runtime's secured metrics,
 * kube-rbac-proxy): the request is echoed with a `status` saying whether `spec.token`
 * authenticates, and as whom (`user`: name, uid, groups, extra) and for which audiences.
 * `userOf` is the server's own bearer-token authenticator (undefined: not valid), so a token
 * is accepted exactly when a request bearing it would be. With `spec.audiences`, the token
 * must be for one of them as well (the server's tokens are for `serverAudience` only).
 * Never stored.
 */
export function evaluateTokenReview(
  body: unknown,
  userOf: (token: string) => AuthenticatedUser | undefined,
  serverAudience: string,
): Json {
  const review = isJsonObject(body) ? body : {};
  const spec = isJsonObject(review.spec) ? review.spec : {};
  const token = typeof spec.token === 'string' ? spec.token : '';
  const wanted = Array.isArray(spec.audiences)
    ? spec.audiences.filter((audience): audience is string => typeof audience === 'string')
    : [];
  const base = {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenReview',
    metadata: { creationTimestamp: null },
    spec: spec as Json,
  };
  const user = token === '' ? undefined : userOf(token);
  if (user === undefined) {
    return { ...base, status: { user: {}, error: '[invalid bearer token]' } } as Json;
  }
  if (wanted.length > 0 && !wanted.includes(serverAudience)) {
    return {
      ...base,
      status: {
        user: {},
        error: `[token audiences ["${serverAudience}"] is invalid for the target audiences ${JSON.stringify(wanted)}]`,
      },
    } as Json;
  }
  return {
    ...base,
    status: { authenticated: true, user: userInfoOf(user), audiences: [serverAudience] },
  } as unknown as Json;
}
