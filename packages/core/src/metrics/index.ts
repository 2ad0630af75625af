export { MetricsError } from '../errors/metrics-error.js';
export type { TlsKeyPair, TlsSource } from '../http/http-listener.js';
export {
  ControllerMetrics,
  type ReconcileObservation,
  type ReconcileResult,
  reconcileResults,
  reconcileTimeBuckets,
} from './controller-metrics.js';
export {
  DelegatingMetricsAuthorizer,
  type DelegatingMetricsAuthorizerOptions,
  type MetricsAccess,
  type MetricsRequest,
  type MetricsRequestAuthorizer,
  type ReviewedUser,
} from './metrics-authorizer.js';
export {
  cacheObjectsMetricName,
  type HistogramConfig,
  type MetricConfig,
  MetricsRegistry,
  type MetricsRegistryOptions,
} from './metrics-registry.js';
export { defaultMetricsPort, MetricsServer, type MetricsServerOptions } from './metrics-server.js';
export {
  type CertDirOptions,
  certDirServingCertificate,
  selfSignedLifetimeMs,
  selfSignedServingCertificate,
} from './metrics-serving-certificate.js';
export { type GaugeReader, PolledGauge, type PolledGaugeOptions } from './polled-gauge.js';
export {
  initialWebhookCodes,
  type WebhookMetricFamilies,
  WebhookMetrics,
  type WebhookRequestObservation,
  webhookInFlightMetricName,
  webhookLatencyBuckets,
  webhookLatencyMetricName,
  webhookRequestsMetricName,
} from './webhook-metrics.js';
export {
  maxDepthPriorities,
  PrometheusWorkqueueMetricsProvider,
  priorityCardinalityExceeded,
  workqueueDurationBuckets,
} from './workqueue-metrics-provider.js';
