import { randomBytes, randomUUID } from 'node:crypto';
import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import { type AuthenticatedUser, anonymousUser, serviceAccountUser } from '../../auth/index.js';
import {
  type BoundObject,
  defaultTokenIssuer,
  ServiceAccountTokenSigner,
} from '../../auth/service-account-token.js';

/** Finds a stored core object (`serviceaccounts`, `pods`, `secrets`) by namespace and name. */
export type CoreObjectLookup = (
  plural: 'serviceaccounts' | 'pods' | 'secrets',
  namespace: string,
  name: string,
) => KubernetesObject | undefined;

/** What a service account token is issued for. */
export interface ServiceAccountTokenRequest {
  namespace: string;
  name: string;
  /** The account's uid; `''` issues a token not bound to any account's uid. */
  uid: string;
  /** Audiences (default: the server's own, {@link defaultTokenIssuer}). */
  audiences?: string[];
  /** Seconds the token is valid for; none: it does not expire. */
  expirationSeconds?: number;
  boundObject?: BoundObject;
}

/** A token issued, with when it expires. */
export interface IssuedToken {
  token: string;
  /** Undefined for a token that does not expire. */
  expiresAt?: Date;
}

const unauthorized = (): StatusError => new StatusError(401, 'Unauthorized', 'Unauthorized');

/**
 * The server's authenticator (kube-apiserver's bearer-token authenticators): static tokens
 * of named users (the admin, {@link issueUserToken}) and service account tokens, JWTs signed
 * by this authenticator ({@link ServiceAccountTokenSigner}) that are valid only while they
 * have not expired, carry the server's audience, and the ServiceAccount (and the Pod or
 * Secret they are bound to) still exists with the uid they name and is not being deleted,
 * as pkg/serviceaccount/claims.go validates them. The clock is passed in.
 */
export class TokenAuthenticator {
  private readonly users = new Map<string, AuthenticatedUser>();
  private readonly signer: ServiceAccountTokenSigner;

  constructor(
    /** How the authenticator finds accounts and bound objects. */
    readonly lookup: CoreObjectLookup,
    private readonly now: () => Date,
    readonly issuer: string = defaultTokenIssuer,
  ) {
    this.signer = new ServiceAccountTokenSigner(issuer);
  }

  /** Makes `token` authenticate as `user` (a static token). */
  addUserToken(token: string, user: AuthenticatedUser): void {
    this.users.set(token, user);
  }

  /** A new random static token that authenticates as `user`. */
  issueUserToken(user: AuthenticatedUser): string {
    const token = randomBytes(24).toString('hex');
    this.users.set(token, user);
    return token;
  }

  /** A signed service account token; see {@link ServiceAccountTokenRequest}. */
  issueServiceAccountToken(request: ServiceAccountTokenRequest): IssuedToken {
    const nowMs = this.now().getTime();
    const issuedAt = Math.floor(nowMs / 1000);
    const expiresAt =
      request.expirationSeconds === undefined ? undefined : issuedAt + request.expirationSeconds;
    const token = this.signer.sign({
      namespace: request.namespace,
      name: request.name,
      uid: request.uid,
      audiences: request.audiences ?? [this.issuer],
      issuedAt,
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(request.boundObject === undefined ? {} : { boundObject: request.boundObject }),
      id: randomUUID(),
    });
    return {
      token,
      ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt * 1000) }),
    };
  }

  /** The user a token authenticates as right now, or undefined when it is not valid. */
  userOf(token: string): AuthenticatedUser | undefined {
    const user = this.users.get(token);
    if (user !== undefined) return user;
    const claims = this.signer.verify(token);
    if (claims === undefined) return undefined;
    if (claims.expiresAt !== undefined && this.now().getTime() >= claims.expiresAt * 1000)
      return undefined;
    if (!claims.audiences.includes(this.issuer)) return undefined;
    const alive = (object: KubernetesObject | undefined, uid: string): boolean =>
      object !== undefined &&
      object.metadata?.deletionTimestamp === undefined &&
      (uid === '' || object.metadata?.uid === uid);
    const account = this.lookup('serviceaccounts', claims.namespace, claims.name);
    if (claims.uid !== '' && !alive(account, claims.uid)) return undefined;
    const extra: Record<string, string[]> = {
      'authentication.kubernetes.io/credential-id': [`JTI=${claims.id}`],
    };
    const bound = claims.boundObject;
    if (bound !== undefined) {
      const plural = bound.kind === 'Pod' ? 'pods' : 'secrets';
      if (!alive(this.lookup(plural, claims.namespace, bound.name), bound.uid)) return undefined;
      if (bound.kind === 'Pod') {
        extra['authentication.kubernetes.io/pod-name'] = [bound.name];
        extra['authentication.kubernetes.io/pod-uid'] = [bound.uid];
      }
    }
    return {
      ...serviceAccountUser(claims.namespace, claims.name),
      ...(claims.uid === '' ? {} : { uid: claims.uid }),
      extra,
    };
  }

  /**
   * The user of a request by its `Authorization` header: the anonymous user without one; the
   * token's user for `Bearer <token>`.
   *
   * @throws {StatusError} 401 `Unauthorized`, as kube-apiserver answers, for any other header
   *   or a token that is unknown, expired, of another audience, or whose ServiceAccount (or
   *   bound object) is gone.
   */
  authenticate(header: string | undefined): AuthenticatedUser {
    if (header === undefined) return anonymousUser;
    const match = /^Bearer\s+(.+)$/i.exec(header);
    const user = match ? this.userOf((match[1] ?? '').trim()) : undefined;
    if (user === undefined) throw unauthorized();
    return user;
  }
}
