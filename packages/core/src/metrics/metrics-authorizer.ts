import { createHash } from 'node:crypto';
import type { TransportRequest, TransportResponse } from '../transport/kube-transport.js';

/** Who a bearer token belongs to, as a TokenReview's `status.user` says. */
export interface ReviewedUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What a scrape asks for: its `Authorization` header, path and method. */
export interface MetricsRequest {
  authorization: string | undefined;
  path: string;
  method: string;
}

/**
 * The decision on one scrape: allowed (with the user), or the HTTP status to answer and why:
 * 401 no or an invalid bearer token, 403 the user may not `get` the path, 500 the API server
 * could not be asked.
 */
export type MetricsAccess =
  | { allowed: true; user: string }
  | { allowed: false; status: 401 | 403 | 500; reason: string };

/** Decides whether a scrape may read the metrics. */
export interface MetricsRequestAuthorizer {
  authorize(request: MetricsRequest): Promise<MetricsAccess>;
}

/** Options of a {@link DelegatingMetricsAuthorizer}. */
export interface DelegatingMetricsAuthorizerOptions {
  /** Sends the reviews to the API server, as the operator's identity (the manager's transport). */
  transport: { request(request: TransportRequest): Promise<TransportResponse> };
  /** How long a token's review is reused, in ms. Default 60 000 (controller-runtime's 1 min). */
  authenticatedTtlMs?: number;
  /** How long a refused token is remembered, in ms. Default 10 000. */
  unauthenticatedTtlMs?: number;
  /** How long an allowed access review is reused, in ms. Default 300 000 (5 min). */
  allowedTtlMs?: number;
  /** How long a denied access review is reused, in ms. Default 30 000. */
  deniedTtlMs?: number;
  /** Most entries each cache holds; the oldest go first. Default 1 024. */
  maxEntries?: number;
  /** The clock of the caches. Default `Date.now`. */
  now?: () => number;
}

interface Entry<T> {
  value: T;
  expiresAt: number;
}

/**
 * controller-runtime's `filters.WithAuthenticationAndAuthorization` (kubebuilder's default
 * metrics protection since v4.1), delegating both questions to the API server:
 *
 * 1. the request's `Authorization: Bearer <token>` is checked with a `TokenReview`
 *    (`authentication.k8s.io/v1`); no header, another scheme or a token the API server does
 *    not authenticate is refused with 401;
 * 2. the user is checked with a `SubjectAccessReview` (`authorization.k8s.io/v1`) of the
 *    non-resource URL (the request's path, `/metrics`) and the request's method in lower case
 *    as the verb (`get`), as the API server names non-resource requests; a denial is 403 —
 *    grant it with a ClusterRole such as `metrics-reader` (`nonResourceURLs: ["/metrics"]`,
 *    `verbs: ["get"]`) bound to the scraper.
 *
 * The operator's own identity therefore needs `create` on `tokenreviews` and
 * `subjectaccessreviews` (the `metrics-auth-role` ops-manifests generates). Answers are cached
 * per token and per user and path (see the TTL options) so that a scrape every few seconds
 * costs no API requests; a review the API server refuses or cannot answer is never cached and
 * makes the request fail with 500 naming the status and what to grant.
 */
export class DelegatingMetricsAuthorizer implements MetricsRequestAuthorizer {
  readonly #options: DelegatingMetricsAuthorizerOptions;
  readonly #now: () => number;
  readonly #tokens = new Map<string, Entry<ReviewedUser | undefined>>();
  readonly #reviews = new Map<string, Entry<{ allowed: boolean; reason: string }>>();

  constructor(options: DelegatingMetricsAuthorizerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async authorize(request: MetricsRequest): Promise<MetricsAccess> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization ?? '');
    const token = match?.[1];
    if (token === undefined) {
      return {
        allowed: false,
        status: 401,
        reason:
          request.authorization === undefined
            ? 'no bearer token: send Authorization: Bearer <token> (a ServiceAccount token)'
            : 'the Authorization header is not Bearer <token>',
      };
    }
    let user: ReviewedUser | undefined;
    try {
      user = await this.#authenticate(token);
    } catch (error) {
      return { allowed: false, status: 500, reason: messageOf(error) };
    }
    if (user === undefined) {
      return {
        allowed: false,
        status: 401,
        reason: 'the API server does not authenticate the bearer token',
      };
    }
    const verb = request.method.toLowerCase();
    let review: { allowed: boolean; reason: string };
    try {
      review = await this.#review(user, request.path, verb);
    } catch (error) {
      return { allowed: false, status: 500, reason: messageOf(error) };
    }
    if (!review.allowed) {
      return {
        allowed: false,
        status: 403,
        reason: `user ${JSON.stringify(user.username)} may not ${verb} ${request.path}${review.reason ? ` (${review.reason})` : ''}: bind a ClusterRole granting it, such as metrics-reader`,
      };
    }
    return { allowed: true, user: user.username };
  }

  async #authenticate(token: string): Promise<ReviewedUser | undefined> {
    const key = createHash('sha256').update(token).digest('hex');
    const cached = this.#cached(this.#tokens, key);
    if (cached) return cached.value;
    const answer = (await this.#create(
      '/apis/authentication.k8s.io/v1/tokenreviews',
      'tokenreviews',
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenReview',
        spec: { token },
      },
    )) as { status?: { authenticated?: boolean; user?: ReviewedUser } };
    const status = answer.status ?? {};
    const user = status.authenticated === true && status.user?.username ? status.user : undefined;
    const ttl =
      user === undefined
        ? (this.#options.unauthenticatedTtlMs ?? 10_000)
        : (this.#options.authenticatedTtlMs ?? 60_000);
    this.#remember(this.#tokens, key, user, ttl);
    return user;
  }

  async #review(
    user: ReviewedUser,
    path: string,
    verb: string,
  ): Promise<{ allowed: boolean; reason: string }> {
    const key = JSON.stringify([user.username, user.uid, user.groups, user.extra, path, verb]);
    const cached = this.#cached(this.#reviews, key);
    if (cached) return cached.value;
    const answer = (await this.#create(
      '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      'subjectaccessreviews',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          ...(user.groups ? { groups: user.groups } : {}),
          ...(user.extra ? { extra: user.extra } : {}),
          nonResourceAttributes: { path, verb },
        },
      },
    )) as { status?: { allowed?: boolean; denied?: boolean; reason?: string } };
    const allowed = answer.status?.allowed === true && answer.status.denied !== true;
    const value = { allowed, reason: answer.status?.reason ?? '' };
    const ttl = allowed
      ? (this.#options.allowedTtlMs ?? 300_000)
      : (this.#options.deniedTtlMs ?? 30_000);
    this.#remember(this.#reviews, key, value, ttl);
    return value;
  }

  async #create(path: string, resource: string, body: unknown): Promise<unknown> {
    const response = await this.#options.transport.request({
      method: 'POST',
      path,
      body,
      timeoutMs: 10_000,
    });
    if (response.status !== 201 && response.status !== 200) {
      const hint =
        response.status === 403
          ? ': the operator needs create on tokenreviews and subjectaccessreviews (the metrics-auth-role ClusterRole bound to its ServiceAccount)'
          : '';
      throw new Error(
        `creating a ${resource} answered ${response.status}${hint}: ${response.text.slice(0, 300)}`,
      );
    }
    return JSON.parse(response.text) as unknown;
  }

  #cached<T>(cache: Map<string, Entry<T>>, key: string): Entry<T> | undefined {
    const entry = cache.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      cache.delete(key);
      return undefined;
    }
    return entry;
  }

  #remember<T>(cache: Map<string, Entry<T>>, key: string, value: T, ttlMs: number): void {
    if (ttlMs <= 0) return;
    cache.delete(key);
    cache.set(key, { value, expiresAt: this.#now() + ttlMs });
    const max = this.#options.maxEntries ?? 1024;
    for (const oldest of cache.keys()) {
      if (cache.size <= max) break;
      cache.delete(oldest);
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
