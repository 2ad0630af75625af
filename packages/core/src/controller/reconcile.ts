import type { Logger } from 'pino';

/**
 * What to reconcile: the namespace and name of an object of the controller's kind. Requests
 * carry no event data on purpose — reconciliation is level-based: a reconciler reads the
 * world as it is now and drives it to the desired state, whatever woke it up.
 */
export interface Request {
  /** Empty for cluster-scoped objects. */
  namespace: string;
  name: string;
}

/** What the controller should do after a successful reconcile. */
export interface Result {
  /** Requeue now (with the per-key rate limit), e.g. to poll something not watched. */
  requeue?: boolean;
  /** Requeue after this many milliseconds (forgets the key's failure backoff). */
  requeueAfterMs?: number;
  /**
   * The priority of this request's next requeue (a whole number, higher first; see
   * `LowPriority`), controller-runtime's `Result.Priority`. Unset, a requeue keeps the
   * priority the request was queued at. Ignored by a FIFO controller.
   */
  priority?: number;
}

/** What a reconciler is given besides the request. */
export interface ReconcileContext {
  /** A logger with `controller`, `namespace`, `name` and `reconcileID` bound. */
  log: Logger;
  /**
   * Aborted when the controller shuts down, or when this reconcile runs past the
   * controller's `reconciliationTimeoutMs` (its reason then a `ReconcileTimeoutError`):
   * long operations should stop.
   */
  signal: AbortSignal;
}

// biome-ignore lint/suspicious/noConfusingVoidType: reconcilers written as `async () => {}` return Promise<void>, which must be accepted
type ReconcileOutput = Result | undefined | void;

/**
 * A reconciler: makes the world match the desired state of the object named by `request`.
 *
 * Contract: return (or resolve) to succeed — optionally asking for a requeue; throw (or
 * reject) to retry with exponential per-key backoff; throw a `TerminalError` to stop retrying.
 * Must be idempotent: it may run many times for one change, and never twice at once for the
 * same request.
 */
export type Reconciler = (
  request: Request,
  context: ReconcileContext,
) => Promise<ReconcileOutput> | ReconcileOutput;

/** `namespace/name`, or `name` for cluster-scoped objects: the workqueue key of a request. */
export function requestKey(request: Request): string {
  return request.namespace ? `${request.namespace}/${request.name}` : request.name;
}

/** The request of a workqueue key. */
export function requestFromKey(key: string): Request {
  const slash = key.indexOf('/');
  return slash === -1
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
