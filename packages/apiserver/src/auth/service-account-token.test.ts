import { describe, expect, it } from 'vitest';
import { ServiceAccountTokenSigner } from './service-account-token.js';

const claims = {
  namespace: 'team',
  name: 'builder',
  uid: 'uid-1',
  audiences: ['https://kubernetes.default.svc.cluster.local'],
  issuedAt: 1_700_000_000,
  expiresAt: 1_700_003_600,
  boundObject: { kind: 'Pod' as const, name: 'p', uid: 'pod-uid' },
  id: 'jti-1',
};

describe('ServiceAccountTokenSigner', () => {
  it('signs a JWT with kube`s claims, and verifies it back', () => {
    const signer = new ServiceAccountTokenSigner();
    const token = signer.sign(claims);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString());
    expect(payload).toEqual({
      aud: claims.audiences,
      exp: claims.expiresAt,
      iat: claims.issuedAt,
      iss: 'https://kubernetes.default.svc.cluster.local',
      jti: 'jti-1',
      'kubernetes.io': {
        namespace: 'team',
        pod: { name: 'p', uid: 'pod-uid' },
        serviceaccount: { name: 'builder', uid: 'uid-1' },
      },
      nbf: claims.issuedAt,
      sub: 'system:serviceaccount:team:builder',
    });
    expect(signer.verify(token)).toEqual(claims);
  });

  it('rejects tampered tokens, tokens of another signer and garbage', () => {
    const signer = new ServiceAccountTokenSigner();
    const token = signer.sign(claims);
    const [header, , signature] = token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ iss: signer.issuer, iat: 1, 'kubernetes.io': { namespace: 'kube-system' } }),
    ).toString('base64url');
    expect(signer.verify(`${header}.${forged}.${signature}`)).toBeUndefined();
    expect(new ServiceAccountTokenSigner().verify(token)).toBeUndefined();
    expect(signer.verify('a.b')).toBeUndefined();
    expect(signer.verify('not-a-token')).toBeUndefined();
  });
});
