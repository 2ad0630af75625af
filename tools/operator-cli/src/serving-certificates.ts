/**
 * Serving certificates for the admission webhooks when cert-manager is not doing it: a CA
 * and a certificate it signed, generated with Node.js alone (through @ops/apiserver's
 * `createServingCertificates`; no openssl), kept as PEM files in a directory.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { OperatorCliError } from './errors/operator-cli-error.js';

/** Certificates expiring within this long are replaced (they are valid for a year). */
export const renewBeforeMs = 30 * 24 * 3600 * 1000;

/** A CA, a serving certificate it signed and the certificate's key, as PEM. */
export interface CertificateSet {
  caCert: string;
  cert: string;
  key: string;
}

/**
 * Whether `set` can be used as is: the certificate is signed by the CA, matches the key,
 * covers every one of `hosts` (DNS names and IP addresses) and stays valid for at least
 * {@link renewBeforeMs} after `now`. Unparsable PEM is simply not usable.
 */
export function certificatesUsable(
  set: CertificateSet,
  hosts: readonly string[],
  now = Date.now(),
): boolean {
  try {
    const cert = new X509Certificate(set.cert);
    const ca = new X509Certificate(set.caCert);
    if (!cert.verify(ca.publicKey) || !cert.checkPrivateKey(createPrivateKey(set.key))) {
      return false;
    }
    if (Date.parse(cert.validTo) - now < renewBeforeMs || Date.parse(cert.validFrom) > now) {
      return false;
    }
    return hosts.every((host) =>
      isIP(host)
        ? cert.checkIP(host) !== undefined
        : cert.checkHost(host, { subject: 'never' }) !== undefined,
    );
  } catch {
    return false;
  }
}

/**
 * A new CA and a serving certificate for `hosts` (DNS names and IP addresses), valid a year.
 *
 * @throws {OperatorCliError} when @ops/apiserver cannot be loaded (in this repository: not
 * built yet).
 */
export async function createCertificates(hosts: readonly string[]): Promise<CertificateSet> {
  let apiserver: typeof import('@ops/apiserver');
  try {
    apiserver = await import('@ops/apiserver');
  } catch (error) {
    throw new OperatorCliError(
      `cannot load @ops/apiserver to generate certificates (${error instanceof Error ? error.message : String(error)}); in this repository build it first: pnpm turbo run build --filter=@ops/operator-cli...`,
    );
  }
  const { caCert, cert, key } = await apiserver.createServingCertificates([...hosts]);
  return { caCert, cert, key };
}

/**
 * Makes sure `dir` holds ca.crt, tls.crt and tls.key usable for `hosts` (see
 * {@link certificatesUsable}), generating a new set when they are missing, expiring or do
 * not cover a host. A webhook server that reloads its certificates picks up the new ones.
 *
 * @returns the set, the directory, and whether it was generated now.
 */
export async function ensureCertificateDirectory(
  dir: string,
  hosts: readonly string[],
): Promise<CertificateSet & { dir: string; created: boolean }> {
  let existing: CertificateSet | undefined;
  try {
    existing = {
      caCert: readFileSync(join(dir, 'ca.crt'), 'utf8'),
      cert: readFileSync(join(dir, 'tls.crt'), 'utf8'),
      key: readFileSync(join(dir, 'tls.key'), 'utf8'),
    };
  } catch {
    existing = undefined;
  }
  if (existing && certificatesUsable(existing, hosts)) return { ...existing, dir, created: false };
  const set = await createCertificates(hosts);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(join(dir, 'ca.crt'), set.caCert);
  writeFileSync(join(dir, 'tls.key'), set.key, { mode: 0o600 });
  writeFileSync(join(dir, 'tls.crt'), set.cert);
  return { ...set, dir, created: true };
}
