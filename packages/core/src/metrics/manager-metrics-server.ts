import type { Logger } from 'pino';
import type { KubeTransport } from '../transport/kube-transport.js';
import { DelegatingMetricsAuthorizer } from './metrics-authorizer.js';
import type { MetricsRegistry } from './metrics-registry.js';
import { MetricsServer } from './metrics-server.js';
import {
  certDirServingCertificate,
  selfSignedServingCertificate,
} from './metrics-serving-certificate.js';

/** How a manager serves `/metrics` securely (its `metricsSecureServing` option). */
export type MetricsSecureServing =
  | boolean
  | { certDir?: string; certName?: string; keyName?: string };

/**
 * A manager's `/metrics` server on `address`: plain HTTP, or with `secure` HTTPS whose
 * certificate comes from `certDir` (reloaded as it changes) or is self-signed, every request
 * authenticated and authorized by the API server through `transport` (TokenReview and
 * SubjectAccessReview, controller-runtime's `WithAuthenticationAndAuthorization`).
 */
export function managerMetricsServer(options: {
  address: { port: number; host?: string };
  secure: MetricsSecureServing;
  metrics: MetricsRegistry;
  transport: KubeTransport;
  logger: Logger;
}): MetricsServer {
  const { address, secure, metrics, transport, logger } = options;
  const certificate = secure === false ? undefined : secure === true ? {} : secure;
  return new MetricsServer({
    metrics,
    port: address.port,
    ...(address.host ? { host: address.host } : {}),
    logger,
    ...(certificate === undefined
      ? {}
      : {
          tls: certificate.certDir
            ? certDirServingCertificate({ ...certificate, certDir: certificate.certDir, logger })
            : selfSignedServingCertificate(),
          authorizer: new DelegatingMetricsAuthorizer({ transport }),
        }),
  });
}
