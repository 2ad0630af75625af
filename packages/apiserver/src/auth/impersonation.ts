import { StatusError } from '../api/status-error.js';
import {
  type AuthenticatedUser,
  anonymousUsername,
  authenticatedGroup,
  serviceAccountUsername,
  unauthenticatedGroup,
} from './authenticated-user.js';
import type { AuthorizationDecision } from './authorize.js';
import { forbiddenError } from './forbidden-error.js';
import { goQuote } from './go-format.js';
import type { RequestAttributes } from './request-attributes.js';

/** Request headers, each with every value it was sent with (Node's `req.headersDistinct`). */
export type DistinctHeaders = Readonly<Record<string, readonly string[] | undefined>>;

/**
 * One thing a request asks to act as (kube's `v1.ObjectReference` in the impersonation
 * filter): a user, a service account, a group, a uid or one extra value.
 */
export interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  /** `authentication.k8s.io/v1` for `UserExtra` and `UID`, `''` otherwise. */
  apiVersion: string;
  /** The extra key, for `UserExtra`. */
  fieldPath: string;
}

const userHeader = 'impersonate-user';
const groupHeader = 'impersonate-group';
const uidHeader = 'impersonate-uid';
const extraPrefix = 'impersonate-extra-';
const serviceAccountPrefix = 'system:serviceaccount:';
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * `system:serviceaccount:<namespace>:<name>` split as kube's `serviceaccount.SplitUsername`:
 * the namespace must be a DNS label (63 characters at most), the name a DNS subdomain (253 at
 * most); anything else is not a service account's user name.
 */
function splitServiceAccountUsername(username: string): [string, string] | undefined {
  if (!username.startsWith(serviceAccountPrefix)) return undefined;
  const parts = username.slice(serviceAccountPrefix.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (namespace.length > 63 || !dnsLabel.test(namespace)) return undefined;
  if (name.length > 253 || !dnsSubdomain.test(name)) return undefined;
  return [namespace, name];
}

/** An extra key as sent in a header name: lower-cased, then percent-decoded when it decodes. */
function extraKey(headerName: string): string {
  const encoded = headerName.slice(extraPrefix.length).toLowerCase();
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

/** Go's `%v` of an `ObjectReference`: its seven fields, space-separated, in braces. */
const describe = (r: ImpersonationRequest): string =>
  `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;

/**
 * What the `Impersonate-*` headers ask for, in kube's order (user or service account,
 * groups, extra values, uid), as `buildImpersonationRequests` of k8s.io/apiserver's
 * `pkg/endpoints/filters/impersonation.go` reads them: an `Impersonate-User` that is a valid
 * service account's user name asks for that ServiceAccount; each `Impersonate-Group` value
 * and each value of each `Impersonate-Extra-<key>` header is one request. Empty when no such
 * header was sent.
 *
 * @param uri the request URI, for the error message.
 * @throws {StatusError} 500 `Internal Server Error: "<uri>": requested [...] without
 *   impersonating a user` when groups, extras or a uid come without `Impersonate-User`, as
 *   kube-apiserver answers.
 */
export function impersonationRequests(
  headers: DistinctHeaders,
  uri: string,
): ImpersonationRequest[] {
  const requests: ImpersonationRequest[] = [];
  const blank = { namespace: '', apiVersion: '', fieldPath: '' };
  const user = headers[userHeader]?.[0] ?? '';
  if (user !== '') {
    const split = splitServiceAccountUsername(user);
    if (split !== undefined)
      requests.push({ ...blank, kind: 'ServiceAccount', namespace: split[0], name: split[1] });
    else requests.push({ ...blank, kind: 'User', name: user });
  }
  const groups = headers[groupHeader] ?? [];
  for (const group of groups) requests.push({ ...blank, kind: 'Group', name: group });
  let hasExtra = false;
  for (const [header, values] of Object.entries(headers)) {
    if (!header.toLowerCase().startsWith(extraPrefix)) continue;
    hasExtra = true;
    for (const value of values ?? []) {
      requests.push({
        ...blank,
        kind: 'UserExtra',
        name: value,
        apiVersion: 'authentication.k8s.io/v1',
        fieldPath: extraKey(header),
      });
    }
  }
  const uid = headers[uidHeader]?.[0] ?? '';
  if (uid !== '')
    requests.push({ ...blank, kind: 'UID', name: uid, apiVersion: 'authentication.k8s.io/v1' });
  if ((groups.length > 0 || hasExtra || uid !== '') && user === '') {
    throw new StatusError(
      500,
      'InternalError',
      `Internal Server Error: ${goQuote(uri)}: requested [${requests.map(describe).join(' ')}] without impersonating a user`,
    );
  }
  return requests;
}

/** The `impersonate` attributes kube-apiserver authorizes one request with. */
function impersonateAttributes(
  requestor: AuthenticatedUser,
  request: ImpersonationRequest,
): RequestAttributes {
  const base: RequestAttributes = {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    apiGroup: '',
    apiVersion: request.apiVersion === '' ? '' : 'v1',
    resource: '',
    subresource: '',
    namespace: request.namespace,
    name: request.name,
    path: '',
  };
  switch (request.kind) {
    case 'ServiceAccount':
      return { ...base, resource: 'serviceaccounts' };
    case 'User':
      return { ...base, resource: 'users' };
    case 'Group':
      return { ...base, resource: 'groups' };
    case 'UserExtra':
      return {
        ...base,
        apiGroup: 'authentication.k8s.io',
        resource: 'userextras',
        subresource: request.fieldPath,
      };
    case 'UID':
      return { ...base, apiGroup: 'authentication.k8s.io', resource: 'uids' };
  }
}

/** The constrained-impersonation mode of a request (KEP-5284), by the user it impersonates. */
type Mode = 'user-info' | 'serviceaccount' | 'arbitrary-node';

const nodePrefix = 'system:node:';

function modeOf(requests: readonly ImpersonationRequest[]): Mode {
  const user = requests[0];
  if (user?.kind === 'ServiceAccount') return 'serviceaccount';
  if (user?.kind === 'User' && user.name.startsWith(nodePrefix)) return 'arbitrary-node';
  return 'user-info';
}

/** The identity check of constrained impersonation for one request, in `authentication.k8s.io`. */
function identityAttributes(
  requestor: AuthenticatedUser,
  request: ImpersonationRequest,
): RequestAttributes {
  const legacy = impersonateAttributes(requestor, request);
  const base = { ...legacy, apiGroup: 'authentication.k8s.io', apiVersion: 'v1' };
  switch (request.kind) {
    case 'ServiceAccount':
      return { ...base, verb: 'impersonate:serviceaccount' };
    case 'User':
      return request.name.startsWith(nodePrefix)
        ? {
            ...base,
            verb: 'impersonate:arbitrary-node',
            resource: 'nodes',
            name: request.name.slice(nodePrefix.length),
          }
        : { ...base, verb: 'impersonate:user-info' };
    default:
      return { ...base, verb: 'impersonate:user-info' };
  }
}

/** The user the requests make, with kube's group rules. */
function buildUser(
  requests: readonly ImpersonationRequest[],
  groupsSpecified: boolean,
): AuthenticatedUser {
  let name = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const request of requests) {
    switch (request.kind) {
      case 'ServiceAccount':
        name = serviceAccountUsername(request.namespace, request.name);
        if (!groupsSpecified)
          groups = ['system:serviceaccounts', `system:serviceaccounts:${request.namespace}`];
        break;
      case 'User':
        name = request.name;
        break;
      case 'Group':
        groups.push(request.name);
        break;
      case 'UserExtra':
        extra[request.fieldPath] = [...(extra[request.fieldPath] ?? []), request.name];
        break;
      case 'UID':
        uid = request.name;
        break;
    }
  }
  if (name !== anonymousUsername) {
    if (!groups.includes(authenticatedGroup) && !groups.includes(unauthenticatedGroup))
      groups.push(authenticatedGroup);
  } else if (!groups.includes(unauthenticatedGroup)) {
    groups.push(unauthenticatedGroup);
  }
  return {
    name,
    groups,
    ...(uid === '' ? {} : { uid }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

/**
 * The user a request acts as, following kube-apiserver's impersonation filters
 * (k8s.io/apiserver `pkg/endpoints/filters/impersonation.go`, with constrained impersonation,
 * KEP-5284, on by default since v1.36): `requestor` itself when no `Impersonate-*` header was
 * sent. Otherwise:
 *
 * 1. Constrained impersonation, when `action` (the request as the requestor makes it) is
 *    given: the mode is `serviceaccount` for a ServiceAccount user, `arbitrary-node` for
 *    `system:node:<name>`, else `user-info`. `authorize` must allow the request's own verb
 *    prefixed `impersonate-on:<mode>:` (`impersonate-on:user-info:list` on `pods`, or on a
 *    path), then each {@link impersonationRequests} entry with `impersonate:<mode>` (groups,
 *    extras and uids `impersonate:user-info`) on `users`, `serviceaccounts` (its namespace),
 *    `nodes`, `groups`, `userextras/<key>` or `uids` of `authentication.k8s.io`.
 * 2. Else the legacy rule: each entry with `impersonate` on `users`, `groups` or
 *    `serviceaccounts` (core group), `userextras/<key>` or `uids` (`authentication.k8s.io`).
 *
 * The new user has the requested name, uid and extras; its groups are those requested (a
 * ServiceAccount without `Impersonate-Group` gets `system:serviceaccounts` and
 * `system:serviceaccounts:<namespace>`), plus `system:authenticated` unless it is
 * `system:anonymous` or the groups already hold `system:authenticated` or
 * `system:unauthenticated` (`system:anonymous` gets `system:unauthenticated`).
 *
 * @throws {StatusError} 403 when both refuse, naming the first constrained check that failed
 *   (the legacy one when `action` is not given), worded as kube-apiserver's
 *   (`pods is forbidden: User "bob" cannot impersonate-on:user-info:list resource "pods" in
 *   API group "" in the namespace "team"`); 500 as {@link impersonationRequests}.
 */
export function impersonatedUser(
  requestor: AuthenticatedUser,
  headers: DistinctHeaders,
  uri: string,
  authorize: (attributes: RequestAttributes) => AuthorizationDecision,
  action?: RequestAttributes,
): AuthenticatedUser {
  const requests = impersonationRequests(headers, uri);
  if (requests.length === 0) return requestor;
  const user = buildUser(requests, (headers[groupHeader] ?? []).length > 0);
  let refusal: { attributes: RequestAttributes; reason: string } | undefined;
  if (action !== undefined) {
    const checks = [
      { ...action, user: requestor, verb: `impersonate-on:${modeOf(requests)}:${action.verb}` },
      ...requests.map((request) => identityAttributes(requestor, request)),
    ];
    for (const attributes of checks) {
      const decision = authorize(attributes);
      if (!decision.allowed) {
        refusal = { attributes, reason: decision.reason };
        break;
      }
    }
    if (refusal === undefined) return user;
  }
  for (const request of requests) {
    const attributes = impersonateAttributes(requestor, request);
    const decision = authorize(attributes);
    if (!decision.allowed) {
      const reported = refusal ?? { attributes, reason: decision.reason };
      throw forbiddenError(reported.attributes, reported.reason);
    }
  }
  return user;
}
