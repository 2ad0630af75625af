export { MetricsError } from '../errors/metrics-error.js';
export {
  ControllerMetrics,
  type ReconcileObservation,
  type ReconcileResult,
  reconcileResults,
  reconcileTimeBuckets,
} from './controller-metrics.js';
export {
  cacheObjectsMetricName,
  type HistogramConfig,
  type MetricConfig,
  MetricsRegistry,
  type MetricsRegistryOptions,
} from './metrics-registry.js';
export { defaultMetricsPort, MetricsServer, type MetricsServerOptions } from './metrics-server.js';
export { type GaugeReader, PolledGauge, type PolledGaugeOptions } from './polled-gauge.js';
export {
  maxDepthPriorities,
  PrometheusWorkqueueMetricsProvider,
  priorityCardinalityExceeded,
  workqueueDurationBuckets,
} from './workqueue-metrics-provider.js';
