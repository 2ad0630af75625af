import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';

/** A PEM certificate and its PEM private key. */
export interface KeyPair {
  cert: string;
  key: string;
}

/**
 * Makes a self-signed CA (EC P-256, SHA-256) valid from a minute before `now` (clock skew)
 * for `lifetimeMs`, able to sign serving certificates and nothing else below it.
 */
export async function createCertificateAuthority(
  commonName: string,
  now: number,
  lifetimeMs: number,
): Promise<KeyPair> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + lifetimeMs),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      {
        name: 'keyUsage',
        keyCertSign: true,
        cRLSign: true,
        digitalSignature: true,
        critical: true,
      },
    ],
  });
  return { cert: ca.cert, key: ca.private };
}

/**
 * Makes a TLS server certificate for `dnsNames` (the first is the common name), signed by
 * `ca`, valid from a minute before `now` until `notAfter` (never past the CA's own end).
 */
export async function issueServingCertificate(
  ca: KeyPair,
  dnsNames: readonly string[],
  now: number,
  notAfter: number,
): Promise<KeyPair> {
  const caEnd = Date.parse(new X509Certificate(ca.cert).validTo);
  const serving = await generate([{ name: 'commonName', value: dnsNames[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(Math.min(notAfter, caEnd)),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: dnsNames.map((value) => ({ type: 2 as const, value })) },
    ],
  });
  return { cert: serving.cert, key: serving.private };
}

/** The PEM certificates in `pem`, in order (a bundle), each as its own PEM block. */
export function splitPemCertificates(pem: string): string[] {
  return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n?/g) ?? [];
}

/** Start and end of validity of a PEM certificate, in ms since the epoch. */
export function validity(pem: string): { notBefore: number; notAfter: number } {
  const x509 = new X509Certificate(pem);
  return { notBefore: Date.parse(x509.validFrom), notAfter: Date.parse(x509.validTo) };
}

/** When a certificate is due for renewal: after two thirds of its lifetime. */
export function renewalTime(pem: string): number {
  const { notBefore, notAfter } = validity(pem);
  return notBefore + ((notAfter - notBefore) * 2) / 3;
}
