import type { IncomingMessage } from 'node:http';
import type { KubernetesObject } from '@ops/api';
import {
  type AuthenticatedUser,
  type AuthorizationDecision,
  authorize,
  forbiddenError,
  impersonatedUser,
  openPolicy,
  type RbacPolicy,
  type RequestAttributes,
  requestAttributesFrom,
  superuserGroup,
} from '../../auth/index.js';
import type { ResourceRegistry } from '../../registry/resource-registry.js';
import type { ResourceType } from '../../registry/resource-type.js';
import type { ObjectStore } from '../../store/object-store.js';
import type { RequestContext } from '../handlers/resource-service.js';
import { checkRbacEscalation } from './rbac-escalation-check.js';
import { TokenAuthenticator } from './token-authenticator.js';

/**
 * Who may do what on one API server: authentication (bearer tokens and service account
 * tokens, {@link TokenAuthenticator}), impersonation, authorization by the stored RBAC
 * objects (with RBAC off, plus `openPolicy`'s grants) and RBAC's escalation checks on
 * writes. The RBAC objects are read from `store` once per change ({@link invalidate}).
 */
export class RequestAccess {
  readonly tokens: TokenAuthenticator;
  /** Whether RBAC is enforced for everyone outside `system:masters`. */
  rbac: boolean;
  private stored: RbacPolicy | undefined;
  private open: { base: RbacPolicy; policy: RbacPolicy } | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly registry: ResourceRegistry,
    options: { rbac: boolean; now: () => Date },
  ) {
    this.rbac = options.rbac;
    this.tokens = new TokenAuthenticator(
      (plural, namespace, name) => store.get(`/${plural}`, `${namespace}/${name}`)?.object,
      options.now,
    );
  }

  /** Forgets the RBAC objects read, after a write to them (or to the served resources). */
  invalidate(): void {
    this.stored = undefined;
  }

  /**
   * The policy requests are decided by: the stored RBAC objects with RBAC enforced; without,
   * the same plus everything for authenticated users and the ordinary verbs on everything
   * but Secrets for anonymous ones (see `openPolicy`).
   */
  policy(): RbacPolicy {
    if (this.stored === undefined) {
      const read = (plural: string) =>
        this.store.list(`rbac.authorization.k8s.io/${plural}`).map((s) => s.object);
      this.stored = {
        roles: read('roles'),
        clusterRoles: read('clusterroles'),
        roleBindings: read('rolebindings'),
        clusterRoleBindings: read('clusterrolebindings'),
      } as RbacPolicy;
    }
    if (this.rbac) return this.stored;
    if (this.open?.base !== this.stored)
      this.open = { base: this.stored, policy: openPolicy(this.stored, this.registry.all()) };
    return this.open.policy;
  }

  /** The authorizer: `system:masters` may do anything, others as {@link policy} says. */
  decide(attributes: RequestAttributes): AuthorizationDecision {
    return authorize(attributes, this.policy());
  }

  /**
   * Who a request acts as, and whether it may: the user its bearer token authenticates
   * (anonymous without one), or the user it impersonates with `Impersonate-*` headers when
   * the authenticated user may (`impersonatedUser`); then the request is authorized.
   *
   * @throws {StatusError} 401 for a bad token, 403 when impersonation or the request is
   *   not allowed, with kube-apiserver's messages.
   */
  admit(
    req: IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
  ): AuthenticatedUser {
    const authenticated = this.tokens.authenticate(req.headers.authorization);
    const impersonating = Object.keys(req.headersDistinct).some((header) =>
      header.startsWith('impersonate-'),
    );
    const user = impersonating
      ? impersonatedUser(
          authenticated,
          req.headersDistinct,
          req.url ?? '/',
          (attributes) => this.decide(attributes),
          requestAttributesFrom(method, path, query, authenticated),
        )
      : authenticated;
    if (!user.groups.includes(superuserGroup)) {
      const attributes = requestAttributesFrom(method, path, query, user);
      if (!this.decide(attributes).allowed) throw forbiddenError(attributes);
    }
    return user;
  }

  /** RBAC's escalation check of a write (`checkRbacEscalation`), as a `beforeWrite` hook. */
  checkWrite(
    type: ResourceType,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
    context: RequestContext,
  ): void {
    checkRbacEscalation(
      { type, object, old, user: context.user },
      { authorize: (attributes) => this.decide(attributes), policy: () => this.policy() },
    );
  }
}
