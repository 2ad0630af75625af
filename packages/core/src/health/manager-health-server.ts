import type { Logger } from 'pino';
import type { WebhookServer } from '../webhook/webhook-server.js';
import { HealthServer } from './health-server.js';

/**
 * A manager's `/healthz` and `/readyz` on `address`: healthy while the process answers
 * (`ping`); ready while `cachesReady()` says so (`informers`) and, with a webhook server,
 * while it serves (`webhook`).
 */
export function managerHealthServer(options: {
  address: { port: number; host?: string };
  logger: Logger;
  cachesReady: () => boolean;
  webhookServer?: Pick<WebhookServer, 'readinessCheck'>;
}): HealthServer {
  const { address, logger, cachesReady, webhookServer } = options;
  const health = new HealthServer({
    port: address.port,
    ...(address.host ? { host: address.host } : {}),
    logger,
  });
  health.addHealthzCheck('ping', () => undefined);
  health.addReadyzCheck('informers', () => {
    if (!cachesReady()) throw new Error('caches have not synced yet');
  });
  if (webhookServer) health.addReadyzCheck('webhook', webhookServer.readinessCheck);
  return health;
}
