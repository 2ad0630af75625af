import { isJsonObject, type Status } from '@ops/api';
import { ApiError, type ApiErrorReason } from '../errors/api-error.js';
import type { TransportResponse } from '../transport/kube-transport.js';

/**
 * What a failed call was doing, used to word its {@link ApiError}: the Kubernetes verb (as
 * RBAC names it), the resource and, when known, the object.
 */
export interface ApiRequestContext {
  /** `get`, `list`, `create`, `update`, `patch`, `delete`, `deletecollection`, ... */
  verb: string;
  /** HTTP method and path, for messages about answers that are not a Status. */
  method: string;
  path: string;
  /** API group, `` for the core group. */
  group?: string;
  /** Plural resource name, e.g. `deployments`. */
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Content-Type of the body sent (to explain a 415). */
  contentType?: string;
  /** The kubeconfig user the call was made as (when the server does not say). */
  user?: string;
}

const reasonByCode: Record<number, ApiErrorReason> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Gone',
  413: 'RequestEntityTooLarge',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** The reason client-go infers from an HTTP code when the answer carries none. */
export function reasonForCode(code: number): ApiErrorReason {
  return reasonByCode[code] ?? 'Unknown';
}

const quote = (text: string): string => JSON.stringify(text);

/** `deployments.apps "x"`, `configmaps`, or the path when the resource is unknown. */
function describeTarget(context: ApiRequestContext): string {
  if (!context.resource) return context.path;
  const resource = context.group ? `${context.resource}.${context.group}` : context.resource;
  const sub = context.subresource ? `/${context.subresource}` : '';
  const name = context.name ? ` ${quote(context.name)}` : '';
  const where = context.namespace ? ` in namespace ${quote(context.namespace)}` : '';
  return `${resource}${sub}${name}${where}`;
}

function asStatus(body: unknown): Status | undefined {
  if (!isJsonObject(body) || body.kind !== 'Status') return undefined;
  return body as Status;
}

const forbiddenResource =
  /User "((?:[^"\\]|\\.)*)" cannot (\S+) resource "([^"]*)" in API group "([^"]*)"(?: in the namespace "((?:[^"\\]|\\.)*)"| at the cluster scope)?/;
const forbiddenPath = /User "((?:[^"\\]|\\.)*)" cannot (\S+) path "([^"]*)"/;

/**
 * What a 403 calls for. An admission plugin's refusal is not an RBAC denial, so it is not
 * answered with a rule to add: `OwnerReferencesPermissionEnforcement` (blockOwnerDeletion
 * without update on the owner's finalizers) gets that rule, `PodSecurity` the namespace's
 * standard, any other "is forbidden: ..." that names no user (an admission plugin's own
 * reason) nothing beyond the server's words. Otherwise: the RBAC rule, from the server's
 * message or else from the request.
 */
function forbiddenAdvice(message: string, context: ApiRequestContext): string | undefined {
  if (message.includes('cannot set blockOwnerDeletion')) {
    return "the API server's OwnerReferencesPermissionEnforcement admission lets only who may update the owner's finalizers set blockOwnerDeletion: add update on <owner plural>/finalizers to the operator's ClusterRole (ops-manifests derives it from the controller's owns() when the manifest module exports its operator)";
  }
  if (message.includes('violates PodSecurity')) {
    return "the namespace's Pod Security Standard (its pod-security.kubernetes.io/enforce label) refuses this Pod: set the securityContext fields named above";
  }
  if (/ is forbidden: (?!User ")/.test(message)) return undefined;
  const list = (value: string) => `[${quote(value)}]`;
  const onPath = forbiddenPath.exec(message);
  if (onPath) {
    const [, , verb = '', path = ''] = onPath;
    return `add a rule {nonResourceURLs: ${list(path)}, verbs: ${list(verb)}} to the operator's ClusterRole`;
  }
  const onResource = forbiddenResource.exec(message);
  let verb = context.verb;
  let resource = context.subresource
    ? `${context.resource ?? ''}/${context.subresource}`
    : (context.resource ?? '');
  let group = context.group ?? '';
  let namespace = context.namespace;
  if (onResource) {
    verb = onResource[2] ?? verb;
    resource = onResource[3] ?? resource;
    group = onResource[4] ?? group;
    namespace = onResource[5];
  }
  if (!resource) return "grant the operator's service account access with a Role or ClusterRole";
  const rule = `{apiGroups: ${list(group)}, resources: ${list(resource)}, verbs: ${list(verb)}}`;
  return namespace
    ? `add a rule ${rule} to the operator's Role or ClusterRole`
    : `add a rule ${rule} to the operator's ClusterRole (cluster-wide access needs a ClusterRole and ClusterRoleBinding)`;
}

/** What to do about a failure of `reason`, or undefined when the server's words suffice. */
function advice(
  reason: ApiErrorReason,
  message: string,
  context: ApiRequestContext,
  status: Status,
): string | undefined {
  switch (reason) {
    case 'Forbidden':
      return forbiddenAdvice(message, context);
    case 'Unauthorized':
      return `the API server rejected the credentials${context.user ? ` of kubeconfig user ${quote(context.user)}` : ''}: check the token, client certificate or exec plugin of the kubeconfig (kubectl auth whoami shows who you are)`;
    case 'AlreadyExists':
      return 'read the existing object and update it (createOrUpdate does this), or choose another name';
    case 'Conflict':
      return 'read the object again and reapply the change; retryOnConflict does this for a read-modify-write';
    case 'Invalid': {
      const causes = status.details?.causes ?? [];
      const missing = causes.filter((cause) => cause.message && !message.includes(cause.message));
      const listed = missing.map((cause) => `${cause.field ?? ''}: ${cause.message ?? ''}`);
      return listed.length > 0
        ? `fix the object: ${listed.join('; ')}`
        : 'fix the fields named above and send the object again';
    }
    case 'Gone':
    case 'Expired':
      return 'the resourceVersion or continue token has expired: start the list or watch again without it';
    case 'TooManyRequests': {
      const after = status.details?.retryAfterSeconds;
      return `the server is throttling requests: retry${after ? ` after ${after} s` : ' later'} with backoff`;
    }
    case 'UnsupportedMediaType':
      if (context.contentType === 'application/apply-patch+yaml') {
        return "this API server does not support server-side apply (patch type 'apply'): use patch type 'merge' or 'strategic' (built-in kinds) instead";
      }
      if (context.contentType === 'application/strategic-merge-patch+json') {
        return "this resource does not accept strategic merge patches (custom resources never do): use patch type 'merge' or 'json'";
      }
      return context.contentType
        ? `the server does not accept ${context.contentType} for this resource`
        : undefined;
    case 'MethodNotAllowed':
      return `${describeTarget(context)} does not support ${context.verb}`;
    case 'NotAcceptable':
      return 'the server cannot answer in JSON for this request';
    case 'InternalError':
    case 'ServiceUnavailable':
    case 'ServerTimeout':
    case 'Timeout':
      return 'the API server failed or is overloaded: retry later with backoff';
    default:
      return undefined;
  }
}

function build(
  code: number,
  reason: ApiErrorReason,
  base: string,
  status: Status,
  context: ApiRequestContext,
  options?: ErrorOptions,
): ApiError {
  const hint = advice(reason, base, context, status);
  const message = hint ? `${base}; ${hint}` : base;
  return new ApiError(code, reason, message, status, options);
}

function retryAfter(response: TransportResponse): number | undefined {
  const header = response.headers['retry-after'];
  const value = Number(Array.isArray(header) ? header[0] : header);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The {@link ApiError} for an answer with a failure code (or a `Status` of failure): the
 * Status body when there is one; else a Status built from the HTTP code and body, worded as
 * client-go does (`the server could not find the requested resource (get configmaps "x")`).
 * The message always ends with what to do, when there is something to do.
 */
export function apiErrorFromResponse(
  response: TransportResponse,
  context: ApiRequestContext,
): ApiError {
  let body: unknown;
  try {
    body = response.text === '' ? undefined : JSON.parse(response.text);
  } catch {
    body = undefined;
  }
  const received = asStatus(body);
  const code =
    typeof received?.code === 'number' && received.code >= 400 ? received.code : response.status;
  const reason: ApiErrorReason = received?.reason ? received.reason : reasonForCode(code);
  const seconds = retryAfter(response);
  const details = { ...(received?.details ?? {}) };
  if (details.retryAfterSeconds === undefined && seconds !== undefined) {
    details.retryAfterSeconds = seconds;
  }
  let message = received?.message;
  if (!message) {
    const snippet = response.text.trim().slice(0, 200);
    const what = `(${context.verb} ${describeTarget(context)})`;
    message = `the server answered ${response.status} ${reason} ${what}${snippet ? `: ${snippet}` : ''}`;
  }
  const status = failureStatus(code, reason, message, details);
  return build(code, reason, message, status, context);
}

/**
 * The {@link ApiError} for a call that got no answer (connection refused, TLS failure,
 * timeout, abort): `code` 0, reason `ConnectionFailed`, the cause kept as `cause`.
 */
export function apiErrorFromFailure(
  error: unknown,
  context: ApiRequestContext,
  server: string,
): ApiError {
  const cause = error instanceof Error ? error : new Error(String(error));
  const aborted = cause.name === 'AbortError';
  const message = aborted
    ? `${context.verb} ${describeTarget(context)} was aborted`
    : `${context.verb} ${describeTarget(context)} failed: could not reach the API server at ${server}: ${cause.message}; check that the server is running and that the kubeconfig's server address, CA and credentials are right`;
  const status = failureStatus(0, 'ConnectionFailed', message);
  return new ApiError(0, 'ConnectionFailed', message, status, { cause });
}

/**
 * The {@link ApiError} for a successful status whose body is not what the call expects (not
 * JSON, or JSON of the wrong shape): reason `UnexpectedResponse`, with `expected` saying what
 * was wanted and the start of the body quoted.
 */
export function unexpectedResponseError(
  response: TransportResponse,
  context: ApiRequestContext,
  expected: string,
): ApiError {
  const contentType = response.headers['content-type'] ?? 'no content type';
  const snippet = response.text.trim().slice(0, 200);
  const message = `${context.verb} ${describeTarget(context)}: the server answered ${response.status} with ${snippet ? `${contentType} ${quote(snippet)}` : 'an empty body'}, expected ${expected}; check that the kubeconfig points at a Kubernetes API server and not a proxy or web page`;
  const status = failureStatus(response.status, 'UnexpectedResponse', message);
  return new ApiError(response.status, 'UnexpectedResponse', message, status);
}

/**
 * The NotFound error the API server would send for `name`, for reads served from the cache:
 * `configmaps "x" not found`, code 404, details naming the object.
 */
export function notFoundError(group: string, resource: string, name: string): ApiError {
  const qualified = group ? `${resource}.${group}` : resource;
  const message = `${qualified} ${quote(name)} not found`;
  const status = failureStatus(404, 'NotFound', message, { name, group, kind: resource });
  return new ApiError(404, 'NotFound', message, status);
}

/**
 * A call the client refuses to send because it cannot be right (e.g. a namespaced object
 * without a namespace): code 400, reason `BadRequest`, `message` saying what to change.
 */
export function badRequestError(message: string): ApiError {
  const status = failureStatus(400, 'BadRequest', message);
  return new ApiError(400, 'BadRequest', message, status);
}

/** A `Status` of kind Failure, as the API server sends it; `details` only when it has keys. */
function failureStatus(
  code: number,
  reason: Status['reason'],
  message: string,
  details?: NonNullable<Status['details']>,
): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
    ...(details !== undefined && Object.keys(details).length > 0 ? { details } : {}),
  };
}
