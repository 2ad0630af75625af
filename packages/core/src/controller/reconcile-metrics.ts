import type { ControllerMetrics } from '../metrics/controller-metrics.js';

/**
 * What a controller reports about its reconciles, with controller-runtime's metric
 * semantics: a `MetricsRegistry.controller(name)` provides it; the default records nothing.
 */
export type ReconcileMetrics = Pick<
  ControllerMetrics,
  'observeReconcile' | 'setMaxConcurrentReconciles' | 'incActiveWorkers' | 'decActiveWorkers'
>;

/** Records nothing. */
export const noopReconcileMetrics: ReconcileMetrics = {
  observeReconcile: () => undefined,
  setMaxConcurrentReconciles: () => undefined,
  incActiveWorkers: () => undefined,
  decActiveWorkers: () => undefined,
};
