import type { KubernetesObject } from '@ops/api';
import type { InformerHandlers } from './informer-handlers.js';
import type { InformerStore } from './informer-store.js';

/**
 * Applies what an informer learns to its store and tells its handlers, after the store
 * changed: a complete list (adds, updates and deletes for the differences), or one watched
 * object. An update is only an update when `metadata.resourceVersion` changed.
 */
export class StoreChanges {
  constructor(
    private readonly store: InformerStore,
    private readonly handlers: InformerHandlers,
  ) {}

  /**
   * Makes the store equal to a complete list. `initial` marks the adds of the first list
   * (`isInInitialList`); an object the list lacks is deleted with `finalStateUnknown` true.
   */
  replace(items: KubernetesObject[], initial: boolean): void {
    const store = this.store;
    if (store.size === 0) {
      for (const object of items) {
        const old = store.upsert(object);
        // Duplicates in one list should not happen; treat a second copy as an update.
        if (old === undefined) this.handlers.emitAdd(object, initial);
        else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) {
          this.handlers.emitUpdate(old, object);
        }
      }
    } else {
      const listed = new Map<string, Set<string>>();
      for (const object of items) {
        const namespace = object.metadata?.namespace ?? '';
        const name = object.metadata?.name ?? '';
        let names = listed.get(namespace);
        if (names === undefined) {
          names = new Set();
          listed.set(namespace, names);
        }
        names.add(name);
        const old = store.get(namespace, name);
        if (old === undefined) {
          store.upsert(object);
          this.handlers.emitAdd(object, initial);
        } else if (old.metadata?.resourceVersion !== object.metadata?.resourceVersion) {
          store.upsert(object);
          this.handlers.emitUpdate(old, object);
        }
      }
      const gone: KubernetesObject[] = [];
      store.forEach((object) => {
        if (!listed.get(object.metadata?.namespace ?? '')?.has(object.metadata?.name ?? '')) {
          gone.push(object);
        }
      });
      for (const object of gone) {
        store.remove(object.metadata?.namespace ?? '', object.metadata?.name ?? '');
        this.handlers.emitDelete(object, true);
      }
    }
  }

  /**
   * Stores a watched object (added or modified). `beforeStore`, when given, is called first
   * with the version it replaces (undefined for a new object), e.g. to share its strings.
   */
  apply(object: KubernetesObject, beforeStore?: (old: KubernetesObject | undefined) => void): void {
    const metadata = object.metadata;
    const old = this.store.get(metadata?.namespace ?? '', metadata?.name ?? '');
    beforeStore?.(old);
    if (old === undefined) {
      this.store.upsert(object);
      this.handlers.emitAdd(object, false);
    } else if (old.metadata?.resourceVersion !== metadata?.resourceVersion) {
      this.store.upsert(object);
      this.handlers.emitUpdate(old, object);
    }
  }

  /** Removes a watched object (deleted); no event when it was not stored. */
  remove(object: KubernetesObject): void {
    const metadata = object.metadata;
    const old = this.store.remove(metadata?.namespace ?? '', metadata?.name ?? '');
    if (old !== undefined) this.handlers.emitDelete(object, false);
  }
}
