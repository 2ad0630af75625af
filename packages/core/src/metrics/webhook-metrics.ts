import type { Counter, Gauge, Histogram } from 'prom-client';

/** Name of the admission latency histogram, controller-runtime's. */
export const webhookLatencyMetricName = 'controller_runtime_webhook_latency_seconds';
/** Name of the admission request counter, controller-runtime's. */
export const webhookRequestsMetricName = 'controller_runtime_webhook_requests_total';
/** Name of the in-flight admission request gauge, controller-runtime's. */
export const webhookInFlightMetricName = 'controller_runtime_webhook_requests_in_flight';

/**
 * Buckets of `controller_runtime_webhook_latency_seconds`, controller-runtime's: powers of
 * ten from 10 ns to 1000 s (Prometheus's `ExponentialBuckets(10e-9, 10, 12)`).
 */
export const webhookLatencyBuckets: readonly number[] = [
  1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.1, 1, 10, 100, 1000,
];

/** The HTTP status codes whose request counters start at zero, as controller-runtime's. */
export const initialWebhookCodes: readonly string[] = ['200', '500'];

/** The metric families of admission webhooks, shared by every {@link WebhookMetrics}. */
export interface WebhookMetricFamilies {
  readonly latency: Histogram<'webhook'>;
  readonly requests: Counter<'webhook' | 'code'>;
  readonly inFlight: Gauge<'webhook'>;
}

/** One answered admission request, as {@link WebhookMetrics.observeRequest} records it. */
export interface WebhookRequestObservation {
  /** The HTTP status code of the answer (200 for every AdmissionReview answered). */
  code: number;
  /** From receiving the request to answering it, in seconds. */
  durationSeconds: number;
}

/**
 * The metrics of one webhook path, bound to its `webhook` label (the URL path, e.g.
 * `/validate-core-crd-lixueduan-com-v1-application`), as controller-runtime's
 * `InstrumentedHook` records them: `controller_runtime_webhook_requests_in_flight`,
 * `controller_runtime_webhook_requests_total{code}` and
 * `controller_runtime_webhook_latency_seconds`. Made by `MetricsRegistry.webhook`, which
 * starts the in-flight gauge and the `200` and `500` counters at zero (so rates and alerts
 * work before the first request); the latency histogram gets its series with the first
 * request, as controller-runtime's.
 *
 * Assumes: one `WebhookMetrics` per path in a registry (the path is the label value).
 */
export class WebhookMetrics {
  readonly #families: WebhookMetricFamilies;
  readonly #labels: { webhook: string };

  /** @internal Use `MetricsRegistry.webhook`. */
  constructor(
    families: WebhookMetricFamilies,
    /** The webhook's URL path, the `webhook` label. */
    readonly webhook: string,
  ) {
    this.#families = families;
    this.#labels = { webhook };
    for (const code of initialWebhookCodes) families.requests.inc({ webhook, code }, 0);
    families.inFlight.set(this.#labels, 0);
  }

  /** A request arrived: `controller_runtime_webhook_requests_in_flight` +1. */
  incInFlight(): void {
    this.#families.inFlight.inc(this.#labels);
  }

  /** A request was answered (or abandoned): `controller_runtime_webhook_requests_in_flight` -1. */
  decInFlight(): void {
    this.#families.inFlight.dec(this.#labels);
  }

  /**
   * Records an answered request: one `controller_runtime_webhook_requests_total{code}` and,
   * when `durationSeconds` is a finite non-negative number, one observation of
   * `controller_runtime_webhook_latency_seconds`.
   */
  observeRequest(observation: WebhookRequestObservation): void {
    this.#families.requests.inc({ webhook: this.webhook, code: String(observation.code) });
    const seconds = observation.durationSeconds;
    if (Number.isFinite(seconds) && seconds >= 0) {
      this.#families.latency.observe(this.#labels, seconds);
    }
  }
}
