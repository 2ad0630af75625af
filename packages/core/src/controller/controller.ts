import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { runAsWriter } from '../cache/write-origin.js';
import { isConflict } from '../client/api-error-helpers.js';
import { type Clock, realClock } from '../clock/clock.js';
import { TerminalError } from '../errors/terminal-error.js';
import type { ReconcileResult } from '../metrics/controller-metrics.js';
import { defaultControllerRateLimiter } from '../queue/default-controller-rate-limiter.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { WorkQueue } from '../queue/work-queue.js';
import {
  noopWorkqueueMetricsProvider,
  type WorkqueueMetricsProvider,
} from '../queue/workqueue-metrics.js';
import type { EventHandler } from './event-handlers.js';
import type { ObjectEvent, Predicate } from './predicates.js';
import {
  type Reconciler,
  type Request,
  type Result,
  requestFromKey,
  requestKey,
} from './reconcile.js';
import { noopReconcileMetrics, type ReconcileMetrics } from './reconcile-metrics.js';

/** Options of a {@link Controller}. */
export interface ControllerOptions {
  /** Unique name: the `controller` label of its metrics and logs. */
  name: string;
  reconciler: Reconciler;
  /** Workers reconciling different requests at once (default 1). A request is never reconciled twice at once. */
  maxConcurrentReconciles?: number;
  /** Per-key backoff and overall limit (default: 5 ms doubling to 1000 s, max'd with 10 qps / burst 100). */
  rateLimiter?: RateLimiter<string>;
  metrics?: ReconcileMetrics;
  workqueueMetrics?: WorkqueueMetricsProvider;
  logger?: Logger;
  clock?: Clock;
}

const programmingErrors = [TypeError, ReferenceError, RangeError, SyntaxError];

/**
 * A controller: a rate-limited workqueue of requests fed by event sources, and workers that
 * call the reconciler.
 *
 * Guarantees: a request is queued at most once and never reconciled by two workers at once;
 * a reconcile that throws is retried with per-key exponential backoff and logged as an
 * error with its stack, except a 409 Conflict (the object changed since it was read, expected
 * with several writers), logged at info with its message only; a `TerminalError` is not
 * retried; success forgets the key's backoff; `requeueAfterMs` re-runs it after the delay;
 * every outcome is counted and timed; errors and rejections never escape a worker.
 * `stop()` lets in-flight reconciles finish.
 */
export class Controller {
  readonly name: string;
  readonly queue: WorkQueue<string>;
  private readonly reconciler: Reconciler;
  private readonly workers: number;
  private readonly metrics: ReconcileMetrics;
  private readonly log: Logger;
  private readonly clock: Clock;
  private running: Promise<void>[] = [];
  private readonly abort = new AbortController();
  private started = false;

  constructor(options: ControllerOptions) {
    if (!options.name) throw new Error('a controller needs a name: it labels its metrics and logs');
    const workers = options.maxConcurrentReconciles ?? 1;
    if (!Number.isInteger(workers) || workers < 1) {
      throw new Error(`maxConcurrentReconciles must be a whole number >= 1, got ${workers}`);
    }
    this.name = options.name;
    this.reconciler = options.reconciler;
    this.workers = workers;
    this.metrics = options.metrics ?? noopReconcileMetrics;
    this.clock = options.clock ?? realClock;
    this.log = (options.logger ?? pino({ level: 'silent' })).child({ controller: options.name });
    this.queue = new WorkQueue<string>({
      name: options.name,
      metrics: options.workqueueMetrics ?? noopWorkqueueMetricsProvider,
      clock: this.clock,
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter<string>(this.clock),
    });
  }

  /** Queues a request (deduplicated). */
  enqueue(request: Request): void {
    this.queue.add(requestKey(request));
  }

  /**
   * Routes an object event through predicates and a handler into the queue. Used by event
   * sources; a predicate or handler that throws is logged and the event dropped.
   */
  handle(event: ObjectEvent, handler: EventHandler, predicates: readonly Predicate[] = []): void {
    try {
      if (!predicates.every((predicate) => predicate(event))) return;
      for (const request of handler(event.object)) this.enqueue(request);
    } catch (error) {
      this.log.error(
        {
          err: error,
          event: event.type,
          namespace: event.object.metadata?.namespace,
          name: event.object.metadata?.name,
        },
        'event handler or predicate failed; event dropped',
      );
    }
  }

  /** Starts the workers. Idempotent. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.metrics.setMaxConcurrentReconciles(this.workers);
    this.log.info({ workers: this.workers }, 'starting workers');
    for (let i = 0; i < this.workers; i++) this.running.push(this.work());
  }

  /** Stops taking work, lets in-flight reconciles finish, and resolves when all workers are done. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.queue.shutDownWithDrain();
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
    this.log.info('stopped');
  }

  private async work(): Promise<void> {
    for (;;) {
      const next = await this.queue.get();
      if (next.shutdown) return;
      if (this.abort.signal.aborted) {
        // Shutting down: queued work is dropped, only in-flight reconciles finish.
        this.queue.done(next.item);
        return;
      }
      try {
        await this.reconcileKey(next.item);
      } finally {
        this.queue.done(next.item);
      }
    }
  }

  private async reconcileKey(key: string): Promise<void> {
    const request = requestFromKey(key);
    const log = this.log.child({
      namespace: request.namespace || undefined,
      name: request.name,
      reconcileID: randomUUID(),
    });
    const started = this.clock.now();
    this.metrics.incActiveWorkers();
    let outcome: ReconcileResult;
    let terminal = false;
    let panic = false;
    try {
      // Run as this controller's writer: its writes' own events do not reconcile it again.
      const result = ((await runAsWriter(this.name, () =>
        this.reconciler(request, { log, signal: this.abort.signal }),
      )) ?? {}) as Result;
      if (result.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
        this.queue.forget(key);
        this.queue.addAfter(key, result.requeueAfterMs);
        outcome = 'requeue_after';
      } else if (result.requeue) {
        this.queue.addRateLimited(key);
        outcome = 'requeue';
      } else {
        this.queue.forget(key);
        outcome = 'success';
      }
    } catch (error) {
      outcome = 'error';
      terminal = TerminalError.isInstance(error);
      panic = programmingErrors.some((type) => error instanceof type);
      if (terminal) {
        this.queue.forget(key);
        log.error({ err: error }, 'reconcile failed with a terminal error; not retrying');
      } else if (isConflict(error)) {
        // Someone wrote the object since it was read (409 Conflict): expected with several
        // writers, and the retry reads it afresh. Worth a line, not an error with a stack.
        this.queue.addRateLimited(key);
        log.info(
          {
            reason: 'Conflict',
            error: (error as Error).message,
            retries: this.queue.numRequeues(key),
          },
          'reconcile hit a conflict (the object changed since it was read); retrying with backoff',
        );
      } else {
        this.queue.addRateLimited(key);
        log.error(
          { err: error, retries: this.queue.numRequeues(key) },
          'reconcile failed; retrying with backoff',
        );
      }
    } finally {
      this.metrics.decActiveWorkers();
    }
    this.metrics.observeReconcile({
      result: outcome,
      durationSeconds: (this.clock.now() - started) / 1000,
      terminal,
      panic,
    });
  }
}
