import { type Logger, pino } from 'pino';
import {
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type PrometheusContentType,
  Registry,
} from 'prom-client';
import { MetricsError } from '../errors/metrics-error.js';
import type { UnregisterMetric, WorkqueueMetricsProvider } from '../queue/workqueue-metrics.js';
import {
  type ControllerMetricFamilies,
  ControllerMetrics,
  registerControllerMetricFamilies,
} from './controller-metrics.js';
import { type GaugeReader, PolledGauge } from './polled-gauge.js';
import {
  WebhookMetrics,
  webhookInFlightMetricName,
  webhookLatencyBuckets,
  webhookLatencyMetricName,
  webhookRequestsMetricName,
} from './webhook-metrics.js';
import { PrometheusWorkqueueMetricsProvider } from './workqueue-metrics-provider.js';

/** Options of a {@link MetricsRegistry}. */
export interface MetricsRegistryOptions {
  /**
   * Also export prom-client's default process and Node.js metrics (`process_*`, `nodejs_*`),
   * as controller-runtime exports Go's process metrics. Default false: it starts an event
   * loop delay monitor and a GC observer, which tests rarely want.
   */
  processMetrics?: boolean;
  /** Where failing gauge readers are reported. Default: a silent pino logger. */
  logger?: Logger;
}

/** What a metric is registered with: a Prometheus name, help text and label names. */
export interface MetricConfig<L extends string> {
  /** Prometheus metric name, `[a-zA-Z_:][a-zA-Z0-9_:]*`; counters should end in `_total`. */
  name: string;
  help: string;
  labelNames?: readonly L[];
}

/** A {@link MetricConfig} of a histogram, with its upper bucket bounds (prom-client's default otherwise). */
export interface HistogramConfig<L extends string> extends MetricConfig<L> {
  buckets?: readonly number[];
}

type MetricKind = 'counter' | 'gauge' | 'histogram' | 'polled gauge';

interface Family {
  readonly kind: MetricKind;
  readonly labelNames: readonly string[];
  readonly metric: unknown;
}

/** Name of the gauge of informer cache sizes, see {@link MetricsRegistry.cacheObjects}. */
export const cacheObjectsMetricName = 'ops_cache_objects';

/**
 * The metrics of one manager: a prom-client `Registry` of its own (nothing is registered in
 * prom-client's global registry), holding controller-runtime's controller and workqueue
 * metrics under their usual names, plus whatever other components add.
 *
 * - {@link controller} gives a controller its `controller_runtime_*` series;
 * - {@link webhook} gives an admission webhook path its `controller_runtime_webhook_*` series;
 * - {@link workqueueMetrics} is the provider to give each controller's `WorkQueue`;
 * - {@link gauge}, {@link counter}, {@link histogram} and {@link polledGauge} register other
 *   metrics (get-or-create: the same config returns the same metric);
 * - {@link cacheObjects} exports the size of an informer cache;
 * - {@link metrics} renders the Prometheus text format, served by {@link MetricsServer}.
 *
 * Guarantees: instances are independent (two registries never share a series). Metric names
 * are unique in a registry: registering a name again with another kind or other labels
 * throws a {@link MetricsError}.
 */
export class MetricsRegistry {
  /** The underlying prom-client registry, for registering prom-client metrics directly. */
  readonly registry: Registry<PrometheusContentType>;
  /** The provider of `workqueue_*` metrics; pass it as a `WorkQueue`'s `metrics` option. */
  readonly workqueueMetrics: WorkqueueMetricsProvider;

  readonly #logger: Logger;
  readonly #controllerFamilies: ControllerMetricFamilies;
  readonly #controllers = new Map<string, ControllerMetrics>();
  readonly #webhooks = new Map<string, WebhookMetrics>();
  readonly #families = new Map<string, Family>();

  constructor(options: MetricsRegistryOptions = {}) {
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.registry = new Registry();
    this.#controllerFamilies = registerControllerMetricFamilies(this.registry);
    this.workqueueMetrics = new PrometheusWorkqueueMetricsProvider(this.registry, this.#logger);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /**
   * The metrics of the controller `name`, created (and every series initialised, with
   * `controller_runtime_max_concurrent_reconciles` set to `maxConcurrentReconciles`) on the
   * first call; later calls return the same object and update the worker count when given.
   */
  controller(name: string, options: { maxConcurrentReconciles?: number } = {}): ControllerMetrics {
    const existing = this.#controllers.get(name);
    if (existing !== undefined) {
      if (options.maxConcurrentReconciles !== undefined) {
        existing.setMaxConcurrentReconciles(options.maxConcurrentReconciles);
      }
      return existing;
    }
    const created = new ControllerMetrics(
      this.#controllerFamilies,
      name,
      options.maxConcurrentReconciles ?? 1,
    );
    this.#controllers.set(name, created);
    return created;
  }

  /**
   * The metrics of the admission webhook served at `path` (its `webhook` label), created on
   * the first call (registering controller-runtime's three webhook families in this registry
   * with the first webhook, so an operator without webhooks exports none); later calls return
   * the same object. The `WebhookServer` records into them once given this registry.
   *
   * @throws {MetricsError} when a webhook family's name was already registered here as
   *   another kind or with other labels.
   */
  webhook(path: string): WebhookMetrics {
    const existing = this.#webhooks.get(path);
    if (existing !== undefined) return existing;
    const created = new WebhookMetrics(
      {
        latency: this.histogram({
          name: webhookLatencyMetricName,
          help: 'Histogram of the latency of processing admission requests',
          labelNames: ['webhook'],
          buckets: webhookLatencyBuckets,
        }),
        requests: this.counter({
          name: webhookRequestsMetricName,
          help: 'Total number of admission requests by HTTP status code.',
          labelNames: ['webhook', 'code'],
        }),
        inFlight: this.gauge({
          name: webhookInFlightMetricName,
          help: 'Current number of admission requests being served.',
          labelNames: ['webhook'],
        }),
      },
      path,
    );
    this.#webhooks.set(path, created);
    return created;
  }

  /**
   * A gauge in this registry; the same one for the same name, kind and labels.
   *
   * @throws {MetricsError} when the name is taken by a metric of another kind or with other
   *   labels, or the name or a label name is not valid.
   */
  gauge<L extends string = never>(config: MetricConfig<L>): Gauge<L> {
    return this.#define(
      'gauge',
      config,
      () =>
        new Gauge<L>({
          name: config.name,
          help: config.help,
          labelNames: [...(config.labelNames ?? [])],
          registers: [this.registry],
        }),
    );
  }

  /**
   * A counter in this registry; the same one for the same name, kind and labels.
   *
   * @throws {MetricsError} as {@link gauge}.
   */
  counter<L extends string = never>(config: MetricConfig<L>): Counter<L> {
    return this.#define(
      'counter',
      config,
      () =>
        new Counter<L>({
          name: config.name,
          help: config.help,
          labelNames: [...(config.labelNames ?? [])],
          registers: [this.registry],
        }),
    );
  }

  /**
   * A histogram in this registry; the same one for the same name, kind and labels (the
   * buckets of the first registration are kept).
   *
   * @throws {MetricsError} as {@link gauge}.
   */
  histogram<L extends string = never>(config: HistogramConfig<L>): Histogram<L> {
    return this.#define(
      'histogram',
      config,
      () =>
        new Histogram<L>({
          name: config.name,
          help: config.help,
          labelNames: [...(config.labelNames ?? [])],
          ...(config.buckets === undefined ? {} : { buckets: [...config.buckets] }),
          registers: [this.registry],
        }),
    );
  }

  /**
   * A gauge whose series are read at collection time (see {@link PolledGauge}); the same one
   * for the same name and labels.
   *
   * @throws {MetricsError} as {@link gauge}.
   */
  polledGauge<L extends string = never>(config: MetricConfig<L>): PolledGauge<L> {
    return this.#define(
      'polled gauge',
      config,
      () =>
        new PolledGauge<L>(this.registry, {
          name: config.name,
          help: config.help,
          labelNames: config.labelNames ?? [],
          logger: this.#logger,
        }),
    );
  }

  /**
   * Exports the number of objects in an informer cache as
   * `ops_cache_objects{resource="<resource>"}`, read from `read` at each scrape. `resource`
   * names the cached resource, e.g. `deployments.apps` or `pods`. Returns the function that
   * removes the series (call it when the informer stops).
   */
  cacheObjects(resource: string, read: GaugeReader): UnregisterMetric {
    return this.polledGauge({
      name: cacheObjectsMetricName,
      help: 'Number of objects in the informer cache, per resource',
      labelNames: ['resource'],
    }).register({ resource }, read);
  }

  /** The Prometheus text exposition (format 0.0.4) of every metric, after polling the gauges. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * The sum of the current values of metric `name` (a counter or gauge; gauges polled first)
   * over its series whose labels include every pair of `labels`: for reading a manager's
   * metrics in a test, say `sum('ops_sharding_reassignments_total', { reason: 'drain' })`.
   * 0 when no such metric or series exists, and for a histogram (whose series are named
   * `_bucket`, `_sum` and `_count`).
   */
  async sum(name: string, labels: Readonly<Record<string, string>> = {}): Promise<number> {
    const metric = this.registry.getSingleMetric(name);
    if (metric === undefined) return 0;
    const { values } = await metric.get();
    return values
      .filter(
        (sample) =>
          // A histogram's samples are its _bucket, _sum and _count series: none is `name`.
          (('metricName' in sample ? sample.metricName : undefined) ?? name) === name &&
          Object.entries(labels).every(([key, value]) => String(sample.labels[key]) === value),
      )
      .reduce((total, sample) => total + sample.value, 0);
  }

  /** The content type of {@link metrics}: `text/plain; version=0.0.4; charset=utf-8`. */
  get contentType(): PrometheusContentType {
    return this.registry.contentType;
  }

  #define<L extends string, M>(kind: MetricKind, config: MetricConfig<L>, create: () => M): M {
    const { name } = config;
    const labelNames: readonly string[] = config.labelNames ?? [];
    const existing = this.#families.get(name);
    if (existing !== undefined) {
      if (existing.kind === kind && sameLabels(existing.labelNames, labelNames)) {
        return existing.metric as M;
      }
      throw new MetricsError(
        `metric "${name}" is already registered as a ${existing.kind} with labels [${existing.labelNames.join(', ')}], not as a ${kind} with labels [${labelNames.join(', ')}]; register it once with one kind and label set, or choose another name`,
        name,
      );
    }
    if (this.registry.getSingleMetric(name) !== undefined) {
      throw new MetricsError(
        `metric "${name}" is already registered in this registry (it is one of the built-in controller-runtime metrics, or was registered directly on the prom-client registry); choose another name`,
        name,
      );
    }
    let metric: M;
    try {
      metric = create();
    } catch (error) {
      throw new MetricsError(
        `cannot register ${kind} "${name}": ${error instanceof Error ? error.message : String(error)}; metric names must match [a-zA-Z_:][a-zA-Z0-9_:]* and label names [a-zA-Z_][a-zA-Z0-9_]* (not starting with "__")`,
        name,
        { cause: error },
      );
    }
    this.#families.set(name, { kind, labelNames: [...labelNames], metric });
    return metric;
  }
}

function sameLabels(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((label, index) => label === b[index]);
}
