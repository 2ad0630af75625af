export { BucketRateLimiter } from './bucket-rate-limiter.js';
export {
  type AddOptions,
  type ControllerQueue,
  LowPriority,
  type PriorityGetResult,
} from './controller-queue.js';
export { defaultControllerRateLimiter } from './default-controller-rate-limiter.js';
export {
  defaultBaseDelayMs,
  defaultMaxDelayMs,
  ItemExponentialFailureRateLimiter,
} from './item-exponential-failure-rate-limiter.js';
export { MaxOfRateLimiter } from './max-of-rate-limiter.js';
export { PriorityQueue } from './priority-queue.js';
export type { RateLimiter } from './rate-limiter.js';
export { WorkQueue, type WorkQueueGetResult, type WorkQueueOptions } from './work-queue.js';
export {
  type CounterMetric,
  type GaugeMetric,
  type HistogramMetric,
  noopWorkqueueMetricsProvider,
  type PriorityGaugeMetric,
  type UnregisterMetric,
  type WorkqueueMetricsProvider,
} from './workqueue-metrics.js';
