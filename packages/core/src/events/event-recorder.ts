import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { format } from 'node:util';
import type { KubernetesObject } from '@ops/api';
import { formatRfc3339Seconds } from '@ops/api';
import { type Logger, pino } from 'pino';
import { isAlreadyExists, isConflict } from '../client/api-error-helpers.js';
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
   * Attempts of a write that fails for a reason that may pass (no answer, a timeout, 429 or
   * another 5xx), before the Event is dropped. Default 5.
   */
  maxWriteAttempts?: number;
  /** The wait before the first retry of a write, in ms, doubled before each next one. Default 500. */
  retryDelayMs?: number;
}

/**
 * Whether a failed write may succeed if sent again: an API error with no answer (code 0), 429,
 * 5xx or 409 Conflict (which says to try again), or a failed connection (a Node.js error code such as `ECONNRESET` on the error or
 * one of its causes). Not a 4xx, nor an error of the sink's own code.
 */
function mayPass(error: unknown): boolean {
  if (ApiError.isInstance(error))
    return error.code === 0 || error.code === 429 || error.code >= 500 || isConflict(error);
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR)/.test(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
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
 * - Retries: a write that fails for a reason that may pass (no answer, a failed connection,
 *   429, 5xx, 409 Conflict) is sent again, up to `maxWriteAttempts` in all, `retryDelayMs` apart and doubling
 *   (logged as warnings); a create answered 409 AlreadyExists is written (an earlier attempt
 *   the answer of which was lost stored it). Only the last failure logs an error.
 *
 * Caveats: fewer retries than client-go (12, 10 s apart); Events dropped when the sink falls
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
  readonly #maxWriteAttempts: number;
  readonly #retryDelayMs: number;
  #pending = 0;
  #tail: Promise<void> = Promise.resolve();
  /** Aborted by {@link close}: no write is retried after it. */
  readonly #closing = new AbortController();

  /** @throws {RangeError} when a rate limit option is out of range (not when recording). */
  constructor(options: EventRecorderOptions) {
    this.#sink = options.sink;
    this.#component = options.component;
    this.#instance = options.reportingInstance ?? hostname();
    this.#logger = options.logger ?? pino({ level: 'silent' });
    this.#now = options.now ?? Date.now;
    this.#maxPendingWrites = options.maxPendingWrites ?? 1000;
    this.#maxWriteAttempts = Math.max(1, options.maxWriteAttempts ?? 5);
    this.#retryDelayMs = options.retryDelayMs ?? 500;
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
   * Stops retrying (a write waiting for its retry, or failing from now on, is dropped with a
   * warning: the process is stopping and its connections are closed), then resolves as
   * {@link flush}. The manager calls it when it stops.
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

  /** Waits `ms`, or until {@link close}. */
  #sleep(ms: number): Promise<void> {
    const signal = this.#closing.signal;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      signal.addEventListener('abort', done);
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
        if (attempt > 1 && isAlreadyExists(error)) return;
        if (this.#closing.signal.aborted && mayPass(error)) {
          correlation.failed();
          this.#logger.warn(
            { ...fields, err: error },
            'could not write event while closing; dropped',
          );
          return;
        }
        if (attempt >= this.#maxWriteAttempts || !mayPass(error)) {
          correlation.failed();
          this.#logger.error({ ...fields, err: error }, 'could not write event; dropped');
          return;
        }
        const delayMs = this.#retryDelayMs * 2 ** (attempt - 1);
        this.#logger.warn(
          { ...fields, err: error, attempt, delayMs },
          'could not write event; retrying',
        );
        await this.#sleep(delayMs);
      }
    }
  }
}
