import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

/**
 * How far back certificates are dated, so that a peer whose clock is a little behind
 * accepts them; not counted in their lifetime.
 */
export const clockSkewMs = 60_000;

/** A PEM certificate and its PEM private key. */
export interface KeyPair {
  cert: string;
  key: string;
}

/**
 * Makes a self-signed CA (EC P-256, SHA-256) valid from {@link clockSkewMs} before `now`
 * until `now + lifetimeMs`, able to sign serving certificates and nothing else below it.
 */
export async function createCertificateAuthority(
  commonName: string,
  now: number,
  lifetimeMs: number,
): Promise<KeyPair> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - clockSkewMs),
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
  return { cert: pemBlock(ca.cert), key: pemBlock(ca.private) };
}

/**
 * Makes a TLS server certificate for `hosts` (DNS names, and IP addresses as IP SANs; the
 * first is the common name), signed by `ca`, valid from {@link clockSkewMs} before `now`
 * until `notAfter` (never past the CA's own end).
 */
export async function issueServingCertificate(
  ca: KeyPair,
  hosts: readonly string[],
  now: number,
  notAfter: number,
): Promise<KeyPair> {
  const caEnd = Date.parse(new X509Certificate(ca.cert).validTo);
  const serving = await generate([{ name: 'commonName', value: hosts[0] ?? 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - clockSkewMs),
    notAfterDate: new Date(Math.min(notAfter, caEnd)),
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: hosts.map((host) =>
          isIP(host) === 0 ? { type: 2 as const, value: host } : { type: 7 as const, ip: host },
        ),
      },
    ],
  });
  return { cert: pemBlock(serving.cert), key: pemBlock(serving.private) };
}

/**
 * The PEM certificates in `pem`, in order (a bundle), each as its own PEM block ending in a
 * newline, so that blocks can be concatenated into a bundle again.
 */
export function splitPemCertificates(pem: string): string[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map(
    pemBlock,
  );
}

/**
 * `pem` ending in exactly one newline. selfsigned ends its PEM without one, and OpenSSL
 * reads `-----END CERTIFICATE----------BEGIN CERTIFICATE-----` as one broken block: a
 * concatenated CA bundle would then trust none of its CAs.
 */
function pemBlock(pem: string): string {
  return `${pem.trim()}\n`;
}

/** Start and end of validity of a PEM certificate, in ms since the epoch. */
export function validity(pem: string): { notBefore: number; notAfter: number } {
  const x509 = new X509Certificate(pem);
  return { notBefore: Date.parse(x509.validFrom), notAfter: Date.parse(x509.validTo) };
}

/**
 * When a certificate made here is due for renewal: after two thirds of its lifetime,
 * counted from when it was made (its start of validity plus {@link clockSkewMs}).
 */
export function renewalTime(pem: string): number {
  const { notBefore, notAfter } = validity(pem);
  const made = notBefore + clockSkewMs;
  return made + ((notAfter - made) * 2) / 3;
}
