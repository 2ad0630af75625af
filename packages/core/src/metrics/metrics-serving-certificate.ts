import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { TlsKeyPair, TlsSource } from '../http/http-listener.js';
import { CertWatcher } from '../tls/cert-watcher.js';
import {
  createCertificateAuthority,
  issueServingCertificate,
} from '../tls/certificate-authority.js';

/** How long a certificate made by {@link selfSignedServingCertificate} is valid: one year. */
export const selfSignedLifetimeMs = 365 * 24 * 60 * 60 * 1000;

/**
 * A serving certificate made in memory when the server starts, as controller-runtime's
 * secure metrics server does when it is given no certificate: a throwaway CA (its key is
 * dropped) signs a certificate for `localhost`, `127.0.0.1`, `::1` and the host name (the
 * Pod's name in a cluster), valid for {@link selfSignedLifetimeMs}; the CA is sent along as the
 * chain. Nothing can verify it, so scrapers skip verification (Prometheus:
 * `tlsConfig.insecureSkipVerify`) or use a provided certificate instead
 * ({@link certDirServingCertificate}); the bearer token still authenticates the scraper.
 */
export function selfSignedServingCertificate(now: () => number = Date.now): TlsSource {
  return {
    async start(): Promise<TlsKeyPair> {
      const at = now();
      const ca = await createCertificateAuthority(
        'ops-metrics-self-signed-ca',
        at,
        selfSignedLifetimeMs,
      );
      const hosts = [...new Set(['localhost', '127.0.0.1', '::1', hostname()])];
      const serving = await issueServingCertificate(ca, hosts, at, at + selfSignedLifetimeMs);
      return { cert: `${serving.cert}${ca.cert}`, key: serving.key };
    },
    stop(): void {},
  };
}

/** Where {@link certDirServingCertificate} reads the certificate. */
export interface CertDirOptions {
  /** Directory of the PEM files (a mounted TLS Secret, e.g. from cert-manager). */
  certDir: string;
  /** File name of the certificate. Default `tls.crt`. */
  certName?: string;
  /** File name of the private key. Default `tls.key`. */
  keyName?: string;
  logger: Logger;
}

/**
 * The certificate and key in a directory, reloaded when they change (see `CertWatcher` of
 * `@ops/core/webhook`: a rotated Secret is picked up without a restart). Starting rejects with
 * a `WebhookCertificateError` naming the directory or file when they are missing or invalid.
 */
export function certDirServingCertificate(options: CertDirOptions): TlsSource {
  let watcher: CertWatcher | undefined;
  return {
    async start(update): Promise<TlsKeyPair> {
      watcher = new CertWatcher({
        certDir: options.certDir,
        ...(options.certName ? { certName: options.certName } : {}),
        ...(options.keyName ? { keyName: options.keyName } : {}),
        logger: options.logger,
        purpose: 'metrics',
        onChange: ({ cert, key }) => update({ cert, key }),
      });
      const { cert, key } = await watcher.start();
      return { cert, key };
    },
    stop(): void {
      watcher?.stop();
    },
  };
}
