import { createPrivateKey, X509Certificate } from 'node:crypto';
import { createServer, request } from 'node:https';
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

  it('makes IP addresses IP SANs of a serving certificate', async () => {
    const now = Date.now();
    const ca = await createCertificateAuthority('test-ca', now, 30_000);
    const serving = await issueServingCertificate(
      ca,
      ['svc.ns.svc', '127.0.0.1', '::1'],
      now,
      now + 30_000,
    );
    const x509 = new X509Certificate(serving.cert);
    expect(x509.subjectAltName).toBe(
      'DNS:svc.ns.svc, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.checkHost('svc.ns.svc')).toBe('svc.ns.svc');
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

/** Whether a TLS client trusting `bundle` accepts a server presenting `pair` for svc.ns.svc. */
async function tlsAccepts(bundle: string, pair: { cert: string; key: string }): Promise<string> {
  const server = createServer(pair, (_request, response) => response.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  try {
    return await new Promise<string>((resolve) => {
      const client = request(
        { host: '127.0.0.1', port, servername: 'svc.ns.svc', ca: bundle, agent: false },
        (response) => {
          response.resume();
          resolve('accepted');
        },
      );
      client.on('error', (error) => resolve(error.message));
      client.end();
    });
  } finally {
    server.close();
  }
}

describe('a CA bundle', () => {
  it('made by concatenating certificates verifies servers of each of its CAs over TLS', async () => {
    const now = Date.now();
    const older = await createCertificateAuthority('older', now, 60_000);
    const newer = await createCertificateAuthority('newer', now, 60_000);
    const bundle = splitPemCertificates(`${newer.cert}${older.cert}`).join('');
    expect(bundle).toBe(`${newer.cert}${older.cert}`);
    for (const ca of [older, newer]) {
      const pair = await issueServingCertificate(ca, ['svc.ns.svc'], now, now + 30_000);
      expect(await tlsAccepts(bundle, pair)).toBe('accepted');
    }
    const stranger = await createCertificateAuthority('stranger', now, 60_000);
    const untrusted = await issueServingCertificate(stranger, ['svc.ns.svc'], now, now + 30_000);
    expect(await tlsAccepts(bundle, untrusted)).not.toBe('accepted');
  });
});
