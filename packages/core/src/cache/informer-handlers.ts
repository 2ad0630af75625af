import type { KubernetesObject } from '@ops/api';
import type { Logger } from 'pino';
import type { EventHandlerRegistration, InformerEventHandlers } from './informer.js';
import type { InformerStore } from './informer-store.js';

/**
 * The event handlers of one informer and how they are called: in registration order, each
 * call isolated (a handler that throws, or whose promise rejects, is logged on `log` and
 * the others still run), objects passed by reference. See {@link InformerEventHandlers} for
 * the guarantees the informer gives them.
 */
export class InformerHandlers {
  private handlers: readonly InformerEventHandlers[] = [];

  constructor(private readonly log: Logger) {}

  /**
   * Registers `handlers`, first delivering every object already in `store` to `onAdd`
   * (synthetic adds, `isInInitialList` true), synchronously.
   */
  add(handlers: InformerEventHandlers, store: InformerStore): EventHandlerRegistration {
    if (handlers.onAdd !== undefined && store.size > 0) {
      store.forEach((object) => {
        this.call(handlers, 'onAdd', object, true);
      });
    }
    this.handlers = [...this.handlers, handlers];
    return {
      remove: () => {
        this.handlers = this.handlers.filter((h) => h !== handlers);
      },
    };
  }

  emitAdd(object: KubernetesObject, isInInitialList: boolean): void {
    for (const handlers of this.handlers) {
      if (handlers.onAdd !== undefined) this.call(handlers, 'onAdd', object, isInInitialList);
    }
  }

  emitUpdate(oldObject: KubernetesObject, newObject: KubernetesObject): void {
    for (const handlers of this.handlers) {
      if (handlers.onUpdate !== undefined) this.call(handlers, 'onUpdate', oldObject, newObject);
    }
  }

  emitDelete(object: KubernetesObject, finalStateUnknown: boolean): void {
    for (const handlers of this.handlers) {
      if (handlers.onDelete !== undefined)
        this.call(handlers, 'onDelete', object, finalStateUnknown);
    }
  }

  private call(
    handlers: InformerEventHandlers,
    event: 'onAdd' | 'onUpdate' | 'onDelete',
    first: KubernetesObject,
    second: KubernetesObject | boolean,
  ): void {
    try {
      const result: unknown =
        event === 'onUpdate'
          ? handlers.onUpdate?.(first, second as KubernetesObject)
          : event === 'onAdd'
            ? handlers.onAdd?.(first, second as boolean)
            : handlers.onDelete?.(first, second as boolean);
      if (isThenable(result)) {
        result.then(undefined, (error: unknown) => this.handlerFailed(event, first, error));
      }
    } catch (error) {
      this.handlerFailed(event, first, error);
    }
  }

  private handlerFailed(event: string, object: KubernetesObject, error: unknown): void {
    this.log.error(
      {
        err: error,
        event,
        object: `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`,
      },
      'event handler threw; the informer carries on',
    );
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
