import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { format } from 'node:util';
import type { KubernetesObject } from '@ops/api';
import { formatRfc3339Seconds } from '@ops/api';
import { type Logger, pino } from 'pino';
import { isAlreadyExists } from '../client/api-error-helpers.js';
import { abortableSleep } from '../controller/abortable-sleep.js';
import { ApiError } from '../errors/api-error.js';
import type { CoreEvent, EventObjectReference, EventSink, EventType } from './core-event.js';
import { type Correlation, EventCorrelator } from './event-correlator.js';

/** Options of an {@link EventRecorder}; `sink` and `component` are required. */
export interface EventRecorderOptions {
  /** Where Events are written. */
  sink: EventSink;
  /** Who reports: `source.component` and `reportingComponent`, e.g. `database-operator`. */
  component: string;
  /** `reportingInstance` and `source.host`. Default: the host name (the pod's name in a pod). */
  reportingInstance?: string;
  /** Where failures and dropped Events are logged. Default: a silent pino logger. */
  logger?: Logger;
  /** The wall clock in epoch ms, for timestamps, aggregation and rate limits. Default `Date.now`. */
  now?: () => number;
  /** How long after its last occurrence an Event aggregates repeats, in ms. Default 600 000. */
  aggregationWindowMs?: number;
  /** Events an object may emit at once. Default 25. */
  burst?: number;
  /** Time for an object to regain one Event, in ms. Default 300 000 (5 min). */
  refillIntervalMs?: number;
  /** Objects and Events tracked for aggregation and rate limits. Default 4096. */
  maxCacheEntries?: number;
  /** Writes waiting for the sink at most; more are dropped (and logged). Default 1000. */
  maxPendingWrites?: number;
  /**
   * Tries of an Event's create that fails for a passing reason (no answer, 429, 5xx), before
   * it is dropped. Default 5 (client-go tries 12 times, 10 s apart).
   */
  writeAttempts?: number;
  /**
   * Wait before the second try, in ms, doubled before each next one (at least the
   * Retry-After of a 429). Default 250: the five tries span about 4 s, an API server restart.
   */
  writeRetryDelayMs?: number;
}

/** Whether a failed write may succeed if sent again: no answer, throttled, or a server error. */
function isPassingFailure(error: unknown): boolean {
  return (
    ApiError.isInstance(error) && (error.code === 0 || error.code === 429 || error.code >= 500)
  );
}

const eventTypes: readonly string[] = ['Normal', 'Warning'];

/**
 * Records Kubernetes Events about objects (client-go's `EventRecorder` with its
 * `EventCorrelator`), e.g. `recorder.event(db, 'Warning', 'BackupFailed', 'disk full')`.
 *
 * Each Event is a `core/v1` Event named `<object name>.<16 random hex digits>` in the
 * object's namespace (`default` for cluster-scoped objects), with `involvedObject` taken from
 * the object, `source.component` and `reportingComponent` set to `component`,
 * `reportingInstance` and `source.host` to the instance, and RFC 3339 timestamps.
 *
 * Guarantees:
 * - Fire-and-forget: `event` and `eventf` never throw and never wait; writes go to the sink
 *   one at a time, in order, in the background. Invalid calls (a type other than `Normal` or
 *   `Warning`, an empty reason, an object without kind or name) and failed writes are logged
 *   and dropped. {@link flush} waits for the writes issued so far.
 * - Aggregation: repeats of the same Event (object, type, reason, message) within
 *   `aggregationWindowMs` of the previous one patch `count` and `lastTimestamp` of the Event
 *   already written instead of creating another. If the patch fails (the Event expired, ...),
 *   the Event is created again under its name, with the accumulated count.
 * - Rate limiting: each object may emit `burst` Events at once and regains one every
 *   `refillIntervalMs`; Events beyond that are dropped (still counted, so the next one
 *   written has the right count).
 *
 * - Retries: a create that fails for a passing reason (the API server unreachable or
 *   restarting, 429, 5xx) is tried again, up to `writeAttempts` times with a doubling wait,
 *   before the Event is dropped (as client-go's recorder does, with fewer and shorter tries).
 *
 * Caveats: Events dropped when the sink falls
 * more than `maxPendingWrites` behind; state is per recorder, so share one recorder per
 * component.
 */
export class EventRecorder {
  readonly #sink: EventSink;
  readonly #component: string;
  readonly #instance: string;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #correlator: EventCorrelator;
  readonly #maxPendingWrites: number;
  readonly #writeAttempts: number;
  readonly #writeRetryDelayMs: number;
  /** Aborted by {@link close}: no more retries, and a retry's wait ends at once. */
  readonly #closing = new AbortController();
  #pending = 0;
  #tail: Promise<void> = Promise.resolve();

  /** @throws {RangeError} when a rate limit option is out of range (not when recording). */
  constructor(options: EventRecorderOptions) {
    this.#sink = options.sink;
    this.#component = options.component;
    this.#instance = options.reportingInstance ?? hostname();
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.#now = options.now ?? Date.now;
    this.#maxPendingWrites = options.maxPendingWrites ?? 1000;
    this.#writeAttempts = Math.max(1, options.writeAttempts ?? 5);
    this.#writeRetryDelayMs = options.writeRetryDelayMs ?? 250;
    this.#correlator = new EventCorrelator({
      canPatch: typeof options.sink.patch === 'function',
      ...(options.aggregationWindowMs === undefined
        ? {}
        : { aggregationWindowMs: options.aggregationWindowMs }),
      ...(options.burst === undefined ? {} : { burst: options.burst }),
      ...(options.refillIntervalMs === undefined
        ? {}
        : { refillIntervalMs: options.refillIntervalMs }),
      ...(options.maxCacheEntries === undefined ? {} : { maxEntries: options.maxCacheEntries }),
    });
  }

  /**
   * Records an Event about `object`. Never throws; see the class for what is written.
   *
   * @param type `Normal` or `Warning`.
   * @param reason short CamelCase cause, e.g. `Created`, `BackupFailed`.
   * @param message human-readable details.
   */
  event(object: KubernetesObject, type: EventType, reason: string, message: string): void {
    try {
      this.#record(object, type, reason, message);
    } catch (error) {
      this.#logger.error({ err: error, reason }, 'could not record event; dropped');
    }
  }

  /** {@link event} with the message built by Node's `util.format(format, ...args)`. */
  eventf(
    object: KubernetesObject,
    type: EventType,
    reason: string,
    messageFormat: string,
    ...args: unknown[]
  ): void {
    let message: string;
    try {
      message = format(messageFormat, ...args);
    } catch (error) {
      this.#logger.error({ err: error, reason }, 'could not format event message; dropped');
      return;
    }
    this.event(object, type, reason, message);
  }

  /**
   * Stops retrying (a write waiting to be tried again is tried once more, at once) and
   * resolves once the writes issued so far are done: what a manager calls as it stops.
   */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.flush();
  }

  /** Resolves once every write issued so far has been sent (successfully or not). */
  async flush(): Promise<void> {
    for (;;) {
      const tail = this.#tail;
      await tail;
      if (tail === this.#tail) return;
    }
  }

  #record(object: KubernetesObject, type: EventType, reason: string, message: string): void {
    const meta = object.metadata ?? {};
    const fields = { kind: object.kind, namespace: meta.namespace, name: meta.name, type, reason };
    if (!eventTypes.includes(type)) {
      this.#logger.error(
        fields,
        `unsupported event type ${JSON.stringify(type)}: use "Normal" or "Warning"; event dropped`,
      );
      return;
    }
    if (reason === '') {
      this.#logger.error(fields, 'event without a reason; give a CamelCase reason; event dropped');
      return;
    }
    if (!object.kind || !meta.name) {
      this.#logger.error(
        fields,
        'cannot record an event about an object without kind and metadata.name: pass the object as read from the API server; event dropped',
      );
      return;
    }
    const now = this.#now();
    const timestamp = formatRfc3339Seconds(new Date(now));
    const involvedObject: EventObjectReference = { kind: object.kind, name: meta.name };
    if (object.apiVersion) involvedObject.apiVersion = object.apiVersion;
    if (meta.namespace) involvedObject.namespace = meta.namespace;
    if (meta.uid) involvedObject.uid = meta.uid;
    if (meta.resourceVersion) involvedObject.resourceVersion = meta.resourceVersion;
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `${meta.name}.${randomBytes(8).toString('hex')}`,
        namespace: meta.namespace || 'default',
      },
      involvedObject,
      reason,
      message,
      type,
      source: { component: this.#component, host: this.#instance },
      reportingComponent: this.#component,
      reportingInstance: this.#instance,
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
    };
    const correlation = this.#correlator.correlate(event, now);
    if (correlation.action === 'skip') {
      this.#logger.debug(
        { ...fields, count: correlation.count },
        'event rate limit of the object exceeded; event dropped',
      );
      return;
    }
    if (this.#pending >= this.#maxPendingWrites) {
      correlation.failed();
      this.#logger.warn(
        { ...fields, pending: this.#pending },
        'too many events waiting to be written; event dropped',
      );
      return;
    }
    this.#pending += 1;
    this.#tail = this.#tail
      .then(() => this.#write(correlation))
      .finally(() => {
        this.#pending -= 1;
      });
  }

  async #write(correlation: Exclude<Correlation, { action: 'skip' }>): Promise<void> {
    const { event } = correlation;
    const fields = {
      namespace: event.metadata.namespace,
      name: event.metadata.name,
      reason: event.reason,
      count: event.count,
    };
    if (correlation.action === 'patch' && this.#sink.patch !== undefined) {
      try {
        await this.#sink.patch(event.metadata.namespace, event.metadata.name, correlation.patch);
        return;
      } catch (error) {
        this.#logger.debug(
          { ...fields, err: error },
          'could not patch the repeated event; creating it again',
        );
      }
    }
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#sink.create(event);
        return;
      } catch (error) {
        // A try that timed out may have been applied: the Event is there.
        if (attempt > 1 && isAlreadyExists(error)) return;
        if (
          attempt < this.#writeAttempts &&
          isPassingFailure(error) &&
          !this.#closing.signal.aborted
        ) {
          const delayMs = Math.max(
            this.#writeRetryDelayMs * 2 ** (attempt - 1),
            ((error as ApiError).retryAfterSeconds ?? 0) * 1000,
          );
          this.#logger.warn(
            { ...fields, err: error, attempt, delayMs },
            'could not write event; retrying',
          );
          await abortableSleep(delayMs, this.#closing.signal);
          continue;
        }
        correlation.failed();
        this.#logger.error(
          { ...fields, err: error, attempts: attempt },
          'could not write event; dropped',
        );
        return;
      }
    }
  }
}
