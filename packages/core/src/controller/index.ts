export type { ControllerKinds, KindRef } from '../crd/owner-reference-permissions.js';
export { ReconcileTimeoutError } from '../errors/reconcile-timeout-error.js';
export { TerminalError } from '../errors/terminal-error.js';
export { LowPriority } from '../queue/controller-queue.js';
export { Controller, type ControllerOptions } from './controller.js';
export {
  type BuilderOptions,
  ControllerBuilder,
  type ControllerHost,
  type ShardingOptions,
  type WatchSpec,
} from './controller-builder.js';
export {
  type EventHandler,
  enqueueForObject,
  enqueueForOwner,
  enqueueMapped,
} from './event-handlers.js';
export { eventPriority } from './event-priority.js';
export {
  and,
  annotationsChanged,
  generationChanged,
  labelSelectorPredicate,
  labelsChanged,
  not,
  type ObjectEvent,
  or,
  type Predicate,
  resourceVersionChanged,
} from './predicates.js';
export {
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
  requestFromKey,
  requestKey,
} from './reconcile.js';
export { noopReconcileMetrics, type ReconcileMetrics } from './reconcile-metrics.js';
export { type FinalizerClient, type FinalizerHandlers, withFinalizer } from './with-finalizer.js';
