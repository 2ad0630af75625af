import type { InformerCache } from '../cache/informer-cache.js';
import type { Controller } from '../controller/controller.js';
import type { WatchSpec } from '../controller/controller-builder.js';
import type { ObjectEvent, Predicate } from '../controller/predicates.js';

/**
 * The function that hands a watch's events to its controller: every event, or with
 * `skipOwnWriteEvents` none that the controller's own write alone caused (the cache knows which
 * resourceVersion each of its writes made; an event that arrives before the write's answer is
 * decided once the answer is in). Events pass `predicates`, then the watch's handler.
 */
export function ownWriteRouter(
  cache: Pick<InformerCache, 'isOwnWriteEvent' | 'ownWriteInFlight'>,
  controller: Controller,
  watch: WatchSpec,
  predicates: Predicate[],
  skipOwnWriteEvents: boolean,
): (event: ObjectEvent) => void {
  const { apiVersion, kind } = watch.kind;
  const handle = (event: ObjectEvent) => controller.handle(event, watch.handler, predicates);
  return (event) => {
    if (!skipOwnWriteEvents) return handle(event);
    // The controller's own write, and nothing else, changed the object: it knows.
    if (cache.isOwnWriteEvent(controller.name, apiVersion, kind, event.object)) return;
    const inFlight = cache.ownWriteInFlight(controller.name, apiVersion, kind, event.object);
    if (inFlight === undefined) return handle(event);
    void inFlight.then((own) => {
      if (!own) handle(event);
    });
  };
}
