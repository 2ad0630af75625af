import { generateKeyPairSync, type KeyObject, randomUUID, sign, verify } from 'node:crypto';
import { isJsonObject } from '@ops/api';

/** The issuer and API audience of the local server's service account tokens. */
export const defaultTokenIssuer = 'https://kubernetes.default.svc.cluster.local';

/** An object a token is bound to (TokenRequest's `boundObjectRef`), as the token records it. */
export interface BoundObject {
  kind: 'Pod' | 'Secret';
  name: string;
  uid: string;
}

/** What a service account token says, as {@link ServiceAccountTokenSigner} signs it. */
export interface ServiceAccountTokenClaims {
  namespace: string;
  /** The ServiceAccount's name. */
  name: string;
  /**
   * The ServiceAccount's uid: the token is valid only while an account of that uid exists.
   * `''` for a token issued while no such account existed (`ApiServer.serviceAccountToken`).
   */
  uid: string;
  audiences: string[];
  /** Seconds since the epoch. */
  issuedAt: number;
  /** Seconds since the epoch; none for a token that does not expire. */
  expiresAt?: number;
  boundObject?: BoundObject;
  /** The token's id (`jti`), shown as the user's `authentication.kubernetes.io/credential-id`. */
  id: string;
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Signs and verifies service account tokens as JWTs (ES256), with the claims kube-apiserver
 * puts in the tokens of the TokenRequest API (pkg/serviceaccount/claims.go): `iss`, `sub`
 * (`system:serviceaccount:<ns>:<name>`), `aud`, `iat`, `nbf`, `exp`, `jti` and
 * `kubernetes.io` with the namespace, the account's name and uid and the bound Pod or Secret.
 * The key pair is made by the constructor and lives as long as the signer; tokens of
 * another signer (another server, or this one restarted) do not verify.
 */
export class ServiceAccountTokenSigner {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly keyId: string;

  constructor(readonly issuer: string = defaultTokenIssuer) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
    this.keyId = randomUUID();
  }

  /** A signed token carrying `claims`. */
  sign(claims: ServiceAccountTokenClaims): string {
    const header = base64url(JSON.stringify({ alg: 'ES256', kid: this.keyId }));
    const bound =
      claims.boundObject === undefined
        ? {}
        : {
            [claims.boundObject.kind === 'Pod' ? 'pod' : 'secret']: {
              name: claims.boundObject.name,
              uid: claims.boundObject.uid,
            },
          };
    const payload = base64url(
      JSON.stringify({
        aud: claims.audiences,
        ...(claims.expiresAt === undefined ? {} : { exp: claims.expiresAt }),
        iat: claims.issuedAt,
        iss: this.issuer,
        jti: claims.id,
        'kubernetes.io': {
          namespace: claims.namespace,
          ...bound,
          serviceaccount: { name: claims.name, uid: claims.uid },
        },
        nbf: claims.issuedAt,
        sub: `system:serviceaccount:${claims.namespace}:${claims.name}`,
      }),
    );
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), {
      key: this.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${header}.${payload}.${base64url(signature)}`;
  }

  /**
   * The claims of a token this signer signed, or undefined when `token` is not one: not three
   * parts, a signature that does not verify, another issuer or claims of the wrong shape.
   * Expiry is not checked here; the caller compares `expiresAt` with its clock.
   */
  verify(token: string): ServiceAccountTokenClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header = '', payload = '', signature = ''] = parts;
    const head = decodeJson(header);
    if (!isJsonObject(head) || head.alg !== 'ES256' || head.kid !== this.keyId) return undefined;
    const valid = verify(
      'sha256',
      Buffer.from(`${header}.${payload}`),
      { key: this.publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    if (!valid) return undefined;
    const body = decodeJson(payload);
    if (!isJsonObject(body) || body.iss !== this.issuer) return undefined;
    const kube = isJsonObject(body['kubernetes.io']) ? body['kubernetes.io'] : {};
    const account = isJsonObject(kube.serviceaccount) ? kube.serviceaccount : {};
    const pod = isJsonObject(kube.pod) ? kube.pod : undefined;
    const secret = isJsonObject(kube.secret) ? kube.secret : undefined;
    const bound = pod ?? secret;
    if (typeof body.iat !== 'number') return undefined;
    return {
      namespace: str(kube.namespace),
      name: str(account.name),
      uid: str(account.uid),
      audiences: Array.isArray(body.aud) ? body.aud.filter((a) => typeof a === 'string') : [],
      issuedAt: body.iat,
      ...(typeof body.exp === 'number' ? { expiresAt: body.exp } : {}),
      ...(bound === undefined
        ? {}
        : {
            boundObject: {
              kind: pod !== undefined ? 'Pod' : 'Secret',
              name: str(bound.name),
              uid: str(bound.uid),
            },
          }),
      id: str(body.jti),
    };
  }
}
