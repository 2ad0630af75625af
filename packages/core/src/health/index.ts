export { HealthServerError, type HealthServerErrorReason } from '../errors/health-server-error.js';
export {
  defaultCheckTimeoutMs,
  type HealthCheck,
  type HealthCheckResult,
  ping,
  runHealthCheck,
} from './health-check.js';
export { defaultHealthProbePort, HealthServer, type HealthServerOptions } from './health-server.js';
