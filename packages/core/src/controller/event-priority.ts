import { LowPriority } from '../queue/controller-queue.js';
import type { ObjectEvent } from './predicates.js';

/**
 * The priority a controller queues an event's requests at, as controller-runtime's built-in
 * handlers do (`handler.WithLowPriorityWhenUnchanged`): {@link LowPriority} for an event
 * that says nothing new — an add from the informer's initial list (or a handler added after
 * the cache filled), an update whose resourceVersion did not change (a resync) — and 0 (the
 * default) for everything else, so that new work is not queued behind a restart's backlog.
 * A FIFO controller (`usePriorityQueue: false`) ignores it.
 */
export function eventPriority(event: ObjectEvent): number {
  if (event.type === 'create') return event.isInInitialList === true ? LowPriority : 0;
  if (event.type === 'update' && event.old !== undefined) {
    const before = event.old.metadata?.resourceVersion;
    if (before !== undefined && before === event.object.metadata?.resourceVersion) {
      return LowPriority;
    }
  }
  return 0;
}
