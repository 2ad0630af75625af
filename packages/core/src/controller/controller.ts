import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { runAsWriter } from '../cache/write-origin.js';
import { isConflict } from '../client/api-error-helpers.js';
import { type Clock, realClock } from '../clock/clock.js';
import { ReconcileTimeoutError } from '../errors/reconcile-timeout-error.js';
import { TerminalError } from '../errors/terminal-error.js';
import type { ReconcileResult } from '../metrics/controller-metrics.js';
import { type ControllerQueue, checkPriority } from '../queue/controller-queue.js';
import { defaultControllerRateLimiter } from '../queue/default-controller-rate-limiter.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { WorkQueue } from '../queue/work-queue.js';
import {
  noopWorkqueueMetricsProvider,
  type WorkqueueMetricsProvider,
} from '../queue/workqueue-metrics.js';
import type { EventHandler } from './event-handlers.js';
import { eventPriority } from './event-priority.js';
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
  /**
   * Queue requests by priority (default true, as controller-runtime v0.23+): a
   * {@link PriorityQueue}, in which the initial list's and unchanged updates' requests wait
   * behind new work (see `eventPriority`) and a `Result` may carry a priority. False: the
   * FIFO {@link WorkQueue}, every request in order of arrival, priorities ignored.
   */
  usePriorityQueue?: boolean;
  /**
   * controller-runtime's `ReconciliationTimeout`, in milliseconds (default: none). A
   * reconcile still running after it has its signal aborted (reason: a
   * `ReconcileTimeoutError`), is counted in `controller_runtime_reconcile_timeouts_total`
   * and as an error, and its request is retried with backoff; the worker moves on at once.
   * The request is not reconciled again until the timed-out call has settled (never twice
   * at once), so a reconciler that ignores its signal holds its own request, not a worker.
   */
  reconciliationTimeoutMs?: number;
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
 * With the priority queue (the default), requests are handed out highest priority first,
 * FIFO within a priority; events queue at `eventPriority(event)`, requeues at the
 * `Result`'s `priority` or else the priority the request had. With
 * `reconciliationTimeoutMs`, a reconcile past it is aborted, counted and retried (see the
 * option). `stop()` lets in-flight reconciles finish (timed-out ones are not waited for).
 */
export class Controller {
  readonly name: string;
  /** The controller's queue: a {@link PriorityQueue}, or a {@link WorkQueue} when opted out. */
  readonly queue: ControllerQueue<string>;
  private readonly reconciler: Reconciler;
  private readonly timeoutMs: number | undefined;
  /** Keys whose reconcile timed out and has not settled yet: still held in the queue. */
  private readonly abandoned = new Set<string>();
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
    const timeoutMs = options.reconciliationTimeoutMs;
    if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new Error(
        `reconciliationTimeoutMs must be a number of milliseconds > 0 (leave it out for no timeout), got ${timeoutMs}`,
      );
    }
    this.timeoutMs = timeoutMs;
    this.name = options.name;
    this.reconciler = options.reconciler;
    this.workers = workers;
    this.metrics = options.metrics ?? noopReconcileMetrics;
    this.clock = options.clock ?? realClock;
    this.log = (options.logger ?? pino({ level: 'silent' })).child({ controller: options.name });
    const queueOptions = {
      name: options.name,
      metrics: options.workqueueMetrics ?? noopWorkqueueMetricsProvider,
      clock: this.clock,
      rateLimiter: options.rateLimiter ?? defaultControllerRateLimiter<string>(this.clock),
    };
    this.queue =
      options.usePriorityQueue === false
        ? new WorkQueue<string>(queueOptions)
        : new PriorityQueue<string>(queueOptions);
  }

  /**
   * Queues a request (deduplicated; a pending request keeps the higher priority), at
   * `priority` (default 0).
   *
   * @throws {RangeError} when `priority` is not a whole number.
   */
  enqueue(request: Request, priority = 0): void {
    this.queue.addWithOptions(requestKey(request), { priority });
  }

  /**
   * Routes an object event through predicates and a handler into the queue. Used by event
   * sources; a predicate or handler that throws is logged and the event dropped.
   */
  handle(event: ObjectEvent, handler: EventHandler, predicates: readonly Predicate[] = []): void {
    try {
      if (!predicates.every((predicate) => predicate(event))) return;
      const priority = eventPriority(event);
      for (const request of handler(event.object)) this.enqueue(request, priority);
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
    // Timed-out reconciles were aborted already; no reconcile starts after this, so their
    // keys can be let go rather than waited for.
    for (const key of this.abandoned) this.queue.done(key);
    this.abandoned.clear();
    await this.queue.shutDownWithDrain();
    this.queue.shutDown();
    await Promise.all(this.running);
    this.running = [];
    this.log.info('stopped');
  }

  private async work(): Promise<void> {
    for (;;) {
      const next = await this.queue.getWithPriority();
      if (next.shutdown) return;
      const key = next.item;
      if (this.abort.signal.aborted) {
        // Shutting down: queued work is dropped, only in-flight reconciles finish.
        this.queue.done(key);
        return;
      }
      let pending: Promise<unknown> | undefined;
      try {
        pending = (await this.reconcileKey(key, next.priority)).pending;
      } finally {
        if (pending === undefined) {
          this.queue.done(key);
        } else {
          // Timed out: the key stays held until the call settles, so it never runs twice.
          this.abandoned.add(key);
          const release = () => {
            if (this.abandoned.delete(key)) this.queue.done(key);
          };
          pending.then(release, release);
        }
      }
    }
  }

  /**
   * Reconciles `key` and queues what its outcome asks for. Resolves when the worker may move
   * on: once the reconciler settled (`pending` undefined), or with its still pending call when
   * it timed out (wrapped, or awaiting this would wait for that call).
   */
  private async reconcileKey(
    key: string,
    queuedPriority: number,
  ): Promise<{ pending: Promise<unknown> | undefined }> {
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
    let timedOut = false;
    let pending: Promise<unknown> | undefined;
    let priority = queuedPriority;
    const deadline = this.timeoutMs === undefined ? undefined : new AbortController();
    const signal =
      deadline === undefined
        ? this.abort.signal
        : AbortSignal.any([this.abort.signal, deadline.signal]);
    try {
      // Run as this controller's writer: its writes' own events do not reconcile it again.
      const call = runAsWriter(this.name, async () => this.reconciler(request, { log, signal }));
      const settled = deadline === undefined ? await call : await this.withDeadline(call, deadline);
      if (settled === timedOutMarker) {
        timedOut = true;
        pending = call;
        throw deadline?.signal.reason;
      }
      const result = (settled ?? {}) as Result;
      if (result.priority !== undefined) {
        priority = checkPriority(
          result.priority,
          `the reconciler of controller ${this.name} returned a Result whose priority is invalid`,
        );
      }
      if (result.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
        this.queue.forget(key);
        this.queue.addWithOptions(key, { afterMs: result.requeueAfterMs, priority });
        outcome = 'requeue_after';
      } else if (result.requeue) {
        this.queue.addWithOptions(key, { rateLimited: true, priority });
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
      } else if (timedOut) {
        this.queue.addWithOptions(key, { rateLimited: true, priority });
        log.error(
          { timeoutMs: this.timeoutMs, retries: this.queue.numRequeues(key) },
          'reconcile timed out (reconciliationTimeoutMs); its signal was aborted; retrying with backoff once it settles',
        );
      } else if (isConflict(error)) {
        // Someone wrote the object since it was read (409 Conflict): expected with several
        // writers, and the retry reads it afresh. Worth a line, not an error with a stack.
        this.queue.addWithOptions(key, { rateLimited: true, priority });
        log.info(
          {
            reason: 'Conflict',
            error: (error as Error).message,
            retries: this.queue.numRequeues(key),
          },
          'reconcile hit a conflict (the object changed since it was read); retrying with backoff',
        );
      } else {
        this.queue.addWithOptions(key, { rateLimited: true, priority });
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
      timedOut,
    });
    return { pending };
  }

  /**
   * Waits for `call` or the reconciliation timeout, whichever comes first; at the timeout,
   * aborts `deadline` and resolves with {@link timedOutMarker}.
   */
  private withDeadline<R>(
    call: Promise<R>,
    deadline: AbortController,
  ): Promise<R | typeof timedOutMarker> {
    const timeoutMs = this.timeoutMs as number;
    return new Promise((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        deadline.abort(
          new ReconcileTimeoutError(
            `reconcile of controller ${this.name} ran past its reconciliationTimeoutMs of ${timeoutMs} ms`,
            timeoutMs,
          ),
        );
        resolve(timedOutMarker);
      }, timeoutMs);
      call.then(
        (value) => {
          this.clock.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          this.clock.clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}

/** What {@link Controller.withDeadline} resolves with when the timeout came first. */
const timedOutMarker: unique symbol = Symbol('timed out');
