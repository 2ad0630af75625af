import {
  type FieldRequirement,
  FieldSelectorError,
  parseFieldSelector,
  parseLabelSelector,
} from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { AuthenticatedUser } from './authenticated-user.js';
import { goQuote } from './go-format.js';

/**
 * What an authorizer decides on (`authorizer.Attributes` of k8s.io/apiserver): who asks to do
 * what to which resource or path.
 */
export interface RequestAttributes {
  user: AuthenticatedUser;
  /**
   * For resource requests the API verb (`get`, `list`, `watch`, `create`, `update`, `patch`,
   * `delete`, `deletecollection`, `proxy`, ...); for non-resource requests the lower-case
   * HTTP method (`get`, `post`, `put`, ...).
   */
  verb: string;
  /** True for requests under `/api` and `/apis` that name a resource. */
  isResourceRequest: boolean;
  /** The API group; `''` for the core group and for non-resource requests. */
  apiGroup: string;
  /** The API version (`v1`), `'*'` in an access review that names none; `''` for non-resource requests. */
  apiVersion: string;
  /** The plural resource name (`pods`); `''` for non-resource requests. */
  resource: string;
  /** The subresource (`status`, `scale`, `log`); `''` when none. */
  subresource: string;
  /** The namespace; `''` for cluster-scoped and all-namespace requests. */
  namespace: string;
  /** The object's name; `''` for collection requests. */
  name: string;
  /** The URL path, percent-decoded, without the query. */
  path: string;
}

/** An HTTP query: a URLSearchParams, a raw query string, or parsed parameters. */
export type RequestQuery =
  | URLSearchParams
  | string
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The user of requests that carry no credentials, as kube-apiserver names it. */
export const anonymousUser: AuthenticatedUser = {
  name: 'system:anonymous',
  groups: ['system:unauthenticated'],
};

const specialVerbs = new Set(['proxy', 'watch']);
const specialVerbsWithoutSubresources = new Set(['proxy']);
const namespaceSubresources = new Set(['status', 'finalize']);

const methodVerbs: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function toSearchParams(query: RequestQuery | undefined): URLSearchParams {
  if (query === undefined) return new URLSearchParams();
  if (query instanceof URLSearchParams) return query;
  if (typeof query === 'string') return new URLSearchParams(query);
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (typeof value === 'string') params.append(key, value);
    else for (const item of value) params.append(key, item);
  }
  return params;
}

function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Parses a field selector as apimachinery's `fields.ParseSelector`; undefined when malformed. */
function fieldSelectorTerms(selector: string): FieldRequirement[] | undefined {
  try {
    return parseFieldSelector(selector);
  } catch (error) {
    if (FieldSelectorError.isInstance(error)) return undefined;
    throw error;
  }
}

const int64Pattern = /^[+-]?\d+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Whether `value` parses as Go's `strconv.ParseInt(value, 10, 64)`. */
function isInt64(value: string): boolean {
  if (!int64Pattern.test(value)) return false;
  const parsed = BigInt(value);
  return parsed >= int64Min && parsed <= int64Max;
}

/**
 * The list options of a query as kube-apiserver decodes them for RequestInfo: whether it is a
 * watch and the parsed field selector, or undefined when some parameter does not decode.
 */
function decodeListOptions(
  params: URLSearchParams,
): { watch: boolean; fields: FieldRequirement[] } | undefined {
  for (const key of ['limit', 'timeoutSeconds']) {
    const value = params.get(key);
    if (value !== null && !isInt64(value)) return undefined;
  }
  const labelSelector = params.get('labelSelector');
  if (labelSelector !== null) {
    try {
      parseLabelSelector(labelSelector);
    } catch {
      return undefined;
    }
  }
  const fieldSelector = params.get('fieldSelector');
  const fields = fieldSelector === null ? [] : fieldSelectorTerms(fieldSelector);
  if (fields === undefined) return undefined;
  return { watch: queryFlag(params, 'watch'), fields };
}

/** A boolean query parameter as Kubernetes reads it: any first value but `0` and `false` is true. */
function queryFlag(params: URLSearchParams, key: string): boolean {
  const value = params.get(key);
  if (value === null) return false;
  return value !== '0' && value.toLowerCase() !== 'false';
}

/** Whether `name` can be a path segment (`path.IsValidPathSegmentName`). */
function isValidPathSegmentName(name: string): boolean {
  return name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%');
}

/**
 * Derives the attributes of an HTTP request exactly as kube-apiserver's `RequestInfoFactory`
 * does, then attaches `user`:
 *
 * - paths with fewer than three segments, or not under `/api` or `/apis` (or `/apis/<group>`
 *   without a version and resource) are non-resource requests whose verb is the lower-case
 *   method: `/healthz`, `/version`, `/api`, `/apis`, `/api/v1`, `/openapi/v2`;
 * - `/api/<version>/...` is the core group, `/apis/<group>/<version>/...` a named group;
 * - a `/watch/` or `/proxy/` segment right after the version sets the verb;
 * - `/namespaces/<ns>/<resource>/<name>/<subresource>` is namespaced; `/namespaces/<ns>` is
 *   the `namespaces` resource named `<ns>` in namespace `<ns>`, and its `status` and
 *   `finalize` subresources stay with it;
 * - the verb follows the method (POST create, GET/HEAD get, PUT update, PATCH patch, DELETE
 *   delete; any other method gives `''`); a get without a name is `watch` when the `watch`
 *   parameter is set to anything but `0`/`false` and `list` otherwise, and a delete without a
 *   name is `deletecollection`;
 * - a list or watch whose `fieldSelector` requires `metadata.name=<name>` names `<name>`
 *   (when it is a valid path segment and every list option decodes).
 *
 * `path` may carry its own `?query`, which is read along with `query`. The method is compared
 * case-insensitively.
 *
 * @param user who makes the request; the anonymous user when omitted.
 * @throws {StatusError} 500, as kube-apiserver answers, for a `/watch` or `/proxy` segment
 *   with nothing after it.
 */
export function requestAttributesFrom(
  method: string,
  path: string,
  query?: RequestQuery,
  user: AuthenticatedUser = anonymousUser,
): RequestAttributes {
  const queryStart = path.indexOf('?');
  const rawPath = queryStart === -1 ? path : path.slice(0, queryStart);
  const params = toSearchParams(query);
  if (queryStart !== -1) {
    for (const [key, value] of new URLSearchParams(path.slice(queryStart + 1))) {
      params.append(key, value);
    }
  }
  const upperMethod = method.toUpperCase();
  const decoded = decodePath(rawPath);
  const attributes: RequestAttributes = {
    user,
    verb: method.toLowerCase(),
    isResourceRequest: false,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: decoded,
  };

  const trimmed = decoded.replace(/^\/+|\/+$/g, '');
  let parts = trimmed === '' ? [] : trimmed.split('/');
  if (parts.length < 3) return attributes;
  const prefix = parts[0];
  if (prefix !== 'api' && prefix !== 'apis') return attributes;
  parts = parts.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (parts.length < 3) return attributes;
    apiGroup = parts[0] ?? '';
    parts = parts.slice(1);
  }
  const apiVersion = parts[0] ?? '';
  parts = parts.slice(1);

  let verb: string;
  const first = parts[0] ?? '';
  if (specialVerbs.has(first)) {
    if (parts.length < 2) {
      const search = params.toString();
      const url = search === '' ? rawPath : `${rawPath}?${search}`;
      throw new StatusError(
        500,
        'InternalError',
        `Internal Server Error: ${goQuote(path)}: failed to create RequestInfo: unable to determine kind and namespace from url, ${url}`,
      );
    }
    verb = first;
    parts = parts.slice(1);
  } else {
    verb = methodVerbs[upperMethod] ?? '';
  }

  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1] ?? '';
    if (parts.length > 2 && !namespaceSubresources.has(parts[2] ?? '')) parts = parts.slice(2);
  }

  const resource = parts[0] ?? '';
  let name = parts[1] ?? '';
  const subresource =
    parts.length >= 3 && !specialVerbsWithoutSubresources.has(verb) ? (parts[2] ?? '') : '';

  if (name === '' && verb === 'get') {
    const options = decodeListOptions(params);
    verb = (options?.watch ?? queryFlag(params, 'watch')) ? 'watch' : 'list';
    const nameTerm = options?.fields.find(
      (term) => term.operator === '=' && term.field === 'metadata.name',
    );
    if (nameTerm !== undefined && isValidPathSegmentName(nameTerm.value)) name = nameTerm.value;
  }
  if (name === '' && verb === 'delete') verb = 'deletecollection';

  return {
    ...attributes,
    verb,
    isResourceRequest: true,
    apiGroup,
    apiVersion,
    resource,
    subresource,
    namespace,
    name,
  };
}
