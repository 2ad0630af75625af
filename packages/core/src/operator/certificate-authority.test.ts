import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  clockSkewMs,
  createCertificateAuthority,
  issueServingCertificate,
  renewalTime,
  splitPemCertificates,
  validity,
} from './certificate-authority.js';

describe('certificate authority', () => {
  it('makes a CA that signs serving certificates for DNS names, never outliving it', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const ca = await createCertificateAuthority('test-ca', now, 30_000);
    const caX509 = new X509Certificate(ca.cert);
    expect(caX509.ca).toBe(true);
    expect(validity(ca.cert)).toEqual({ notBefore: now - clockSkewMs, notAfter: now + 30_000 });
    // Renewal after two thirds of the 30 s it was made for, the back-dating aside.
    expect(renewalTime(ca.cert)).toBe(now + 20_000);

    const serving = await issueServingCertificate(
      ca,
      ['svc.ns.svc', 'svc.ns.svc.cluster.local'],
      now,
      now + 90_000,
    );
    const servingX509 = new X509Certificate(serving.cert);
    expect(servingX509.ca).toBe(false);
    expect(servingX509.verify(caX509.publicKey)).toBe(true);
    expect(servingX509.subjectAltName).toBe('DNS:svc.ns.svc, DNS:svc.ns.svc.cluster.local');
    expect(servingX509.subject).toBe('CN=svc.ns.svc');
    expect(servingX509.checkPrivateKey(createPrivateKey(serving.key))).toBe(true);
    expect(validity(serving.cert).notAfter).toBe(now + 30_000);
  });

  it('splits a PEM bundle into its certificates', async () => {
    const now = Date.now();
    const [a, b] = await Promise.all([
      createCertificateAuthority('a', now, 60_000),
      createCertificateAuthority('b', now, 60_000),
    ]);
    expect(splitPemCertificates(`${a.cert}${b.cert}`)).toEqual([a.cert, b.cert]);
    expect(splitPemCertificates('')).toEqual([]);
  });
});
