import { StatusError } from '../api/status-error.js';

/** A request's target split as kube-apiserver's router sees it. */
export interface RequestTarget {
  /** The path as sent (still percent-encoded), without the query and trailing slashes. */
  path: string;
  /**
   * The path's segments, percent-decoded; an encoded `/` separates segments; empty segments
   * dropped.
   */
  segments: string[];
  /** The query string's parameters. */
  query: URLSearchParams;
}

/**
 * Splits a request target (`req.url`) into its path segments and query as kube-apiserver's
 * router does: each segment is percent-decoded, and the decoded path is what is routed and
 * authorized, so an encoded `/` (`%2F`) separates segments as a plain one does (Go's
 * `net/http` decodes it into `URL.Path`, which kube's `RequestInfoFactory` and go-restful
 * split): `/api/v1/namespaces/kube-system%2F..%2Fx/configmaps` has one segment too many for
 * any route and is 404, never a list in a namespace named `kube-system/../x`, and what RBAC
 * authorizes is what is served. No segment is resolved against another: `%2e%2e` is the name
 * `..`, never a step up (a WHATWG URL parser would resolve it and route the request to the
 * parent collection). Empty segments are dropped.
 *
 * @throws {StatusError} 400 when a segment is not valid percent-encoding (Go's server answers
 *   these `400 Bad Request` before any handler runs).
 */
export function parseRequestTarget(url: string): RequestTarget {
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const path = rawPath.replace(/\/+$/, '') || '/';
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .flatMap((segment) => {
      try {
        return decodeURIComponent(segment).split('/');
      } catch {
        throw StatusError.badRequest(
          `the request path ${JSON.stringify(rawPath)} has invalid percent-encoding in ${JSON.stringify(segment)}: escape "%" as "%25"`,
        );
      }
    })
    .filter((segment) => segment !== '');
  return { path, segments, query: new URLSearchParams(rawQuery) };
}

/**
 * Checks that a name taken from the path can be a path segment (apimachinery's
 * `path.IsValidPathSegmentName`, as kube-apiserver's request scope checks it).
 *
 * @throws {StatusError} 400 `Name parameter invalid: "..": may not be '..'`.
 */
export function checkPathSegmentName(name: string): void {
  const problems: string[] = [];
  if (name === '.') problems.push("may not be '.'");
  if (name === '..') problems.push("may not be '..'");
  if (name.includes('/')) problems.push("may not contain '/'");
  if (name.includes('%')) problems.push("may not contain '%'");
  if (problems.length > 0)
    throw StatusError.badRequest(
      `Name parameter invalid: ${JSON.stringify(name)}: ${problems.join(';')}`,
    );
}
