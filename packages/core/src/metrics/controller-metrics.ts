import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** How a reconcile ended, the `result` label of `controller_runtime_reconcile_total`. */
export type ReconcileResult = 'success' | 'error' | 'requeue' | 'requeue_after';

/** Every {@link ReconcileResult}, in controller-runtime's order of initialisation. */
export const reconcileResults: readonly ReconcileResult[] = [
  'error',
  'requeue_after',
  'requeue',
  'success',
];

/**
 * Buckets of `controller_runtime_reconcile_time_seconds`, controller-runtime's: fine-grained
 * up to a second, then coarser up to a minute.
 */
export const reconcileTimeBuckets: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1,
  1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/** The metric families of controllers, shared by every {@link ControllerMetrics}. */
export interface ControllerMetricFamilies {
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly terminalReconcileErrors: Counter<'controller'>;
  readonly reconcilePanics: Counter<'controller'>;
  readonly reconcileTimeouts: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly maxConcurrentReconciles: Gauge<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;
}

/**
 * Registers controller-runtime's controller metrics in `registry`, with its names, labels
 * and buckets, so that dashboards and alerts written for Go operators work unchanged.
 *
 * @internal Use {@link MetricsRegistry.controller}.
 */
export function registerControllerMetricFamilies(registry: Registry): ControllerMetricFamilies {
  const registers = [registry];
  return {
    reconcileTotal: new Counter({
      name: 'controller_runtime_reconcile_total',
      help: 'Total number of reconciliations per controller',
      labelNames: ['controller', 'result'],
      registers,
    }),
    reconcileErrors: new Counter({
      name: 'controller_runtime_reconcile_errors_total',
      help: 'Total number of reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    terminalReconcileErrors: new Counter({
      name: 'controller_runtime_terminal_reconcile_errors_total',
      help: 'Total number of terminal reconciliation errors per controller',
      labelNames: ['controller'],
      registers,
    }),
    reconcilePanics: new Counter({
      name: 'controller_runtime_reconcile_panics_total',
      help: 'Total number of reconciliation panics per controller',
      labelNames: ['controller'],
      registers,
    }),
    reconcileTimeouts: new Counter({
      name: 'controller_runtime_reconcile_timeouts_total',
      help: 'Total number of reconciliation timeouts per controller',
      labelNames: ['controller'],
      registers,
    }),
    reconcileTime: new Histogram({
      name: 'controller_runtime_reconcile_time_seconds',
      help: 'Length of time per reconciliation per controller',
      labelNames: ['controller'],
      buckets: [...reconcileTimeBuckets],
      registers,
    }),
    maxConcurrentReconciles: new Gauge({
      name: 'controller_runtime_max_concurrent_reconciles',
      help: 'Maximum number of concurrent reconciles per controller',
      labelNames: ['controller'],
      registers,
    }),
    activeWorkers: new Gauge({
      name: 'controller_runtime_active_workers',
      help: 'Number of currently used workers per controller',
      labelNames: ['controller'],
      registers,
    }),
  };
}

/** One finished reconcile, as {@link ControllerMetrics.observeReconcile} records it. */
export interface ReconcileObservation {
  /** How it ended: `error` when the reconciler threw (or panicked), else what it asked for. */
  result: ReconcileResult;
  /** How long it took, in seconds. */
  durationSeconds: number;
  /** The error was terminal (not retried); only meaningful with `result: 'error'`. */
  terminal?: boolean;
  /** The reconciler crashed unexpectedly (controller-runtime's recovered panic). */
  panic?: boolean;
  /**
   * It ran past the controller's reconciliation timeout (its signal was aborted); pass
   * `result: 'error'` too, as controller-runtime counts a timed-out reconcile as an error.
   */
  timedOut?: boolean;
}

/**
 * The metrics of one controller, bound to its `controller` label. Made by
 * {@link MetricsRegistry.controller}, which initialises every series to zero (as
 * controller-runtime's controller does when it starts), so that rates and alerts work before
 * the first reconcile.
 *
 * Assumes: a controller's name is unique in the manager (it is the label value).
 */
export class ControllerMetrics {
  readonly #families: ControllerMetricFamilies;
  readonly #labels: { controller: string };

  /** @internal Use {@link MetricsRegistry.controller}. */
  constructor(
    families: ControllerMetricFamilies,
    /** The controller's name, the `controller` label. */
    readonly controller: string,
    maxConcurrentReconciles: number,
  ) {
    this.#families = families;
    this.#labels = { controller };
    for (const result of reconcileResults) families.reconcileTotal.inc({ controller, result }, 0);
    families.reconcileErrors.inc(this.#labels, 0);
    families.terminalReconcileErrors.inc(this.#labels, 0);
    families.reconcilePanics.inc(this.#labels, 0);
    families.reconcileTimeouts.inc(this.#labels, 0);
    families.reconcileTime.zero(this.#labels);
    families.activeWorkers.set(this.#labels, 0);
    this.setMaxConcurrentReconciles(maxConcurrentReconciles);
  }

  /**
   * Records a finished reconcile as controller-runtime's `reconcileHandler` does: one
   * `controller_runtime_reconcile_total{result}`, one observation of
   * `controller_runtime_reconcile_time_seconds`, and for `error` one
   * `controller_runtime_reconcile_errors_total` plus, when `terminal`, one
   * `controller_runtime_terminal_reconcile_errors_total`. `panic` adds one
   * `controller_runtime_reconcile_panics_total` (a panic is also an error: pass
   * `result: 'error'`). `timedOut` adds one `controller_runtime_reconcile_timeouts_total`.
   */
  observeReconcile(observation: ReconcileObservation): void {
    const families = this.#families;
    const labels = this.#labels;
    if (observation.panic) families.reconcilePanics.inc(labels);
    if (observation.timedOut) families.reconcileTimeouts.inc(labels);
    if (observation.result === 'error') {
      families.reconcileErrors.inc(labels);
      if (observation.terminal) families.terminalReconcileErrors.inc(labels);
    }
    families.reconcileTotal.inc({ controller: this.controller, result: observation.result });
    if (Number.isFinite(observation.durationSeconds) && observation.durationSeconds >= 0) {
      families.reconcileTime.observe(labels, observation.durationSeconds);
    }
  }

  /** Sets `controller_runtime_max_concurrent_reconciles` (the number of workers). */
  setMaxConcurrentReconciles(workers: number): void {
    this.#families.maxConcurrentReconciles.set(this.#labels, workers);
  }

  /** A worker started a reconcile: `controller_runtime_active_workers` +1. */
  incActiveWorkers(): void {
    this.#families.activeWorkers.inc(this.#labels);
  }

  /** A worker finished a reconcile: `controller_runtime_active_workers` -1. */
  decActiveWorkers(): void {
    this.#families.activeWorkers.dec(this.#labels);
  }
}
