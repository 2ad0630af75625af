import type { KubernetesObject } from '@ops/api';
import type { Logger } from 'pino';
import type { StringInterner } from './string-interner.js';
import type { TransformFunc } from './strip-managed-fields.js';

/** What {@link InformerObjects} needs of its informer. */
export interface InformerObjectsOptions {
  /** The kind and apiVersion restored on list items, which real API servers omit. */
  kind: string;
  apiVersion: string;
  transform: TransformFunc;
  /** Shares repeated strings between objects; undefined with a custom transform. */
  interner: StringInterner | undefined;
  log: Logger;
  /** Whether the informer was stopped (compaction then stops early). */
  isStopped: () => boolean;
}

/**
 * Turns what an informer parsed into what it stores: completes and transforms each object,
 * and shares repeated strings (inline for watched objects, in small steps after a list so
 * syncing does not wait for it).
 */
export class InformerObjects {
  private compaction: Promise<void> = Promise.resolve();

  constructor(private readonly options: InformerObjectsOptions) {}

  /**
   * Shares repeated strings of freshly listed objects in small steps after the list is
   * stored, so syncing does not wait for it, then forgets the strings seen only once (the
   * interner keeps only what is shared). Values never change (equal strings replace equal
   * strings), so readers and handlers holding these objects see nothing.
   */
  compact(objects: KubernetesObject[]): void {
    const interner = this.options.interner;
    if (interner === undefined || objects.length === 0) return;
    this.compaction = new Promise((resolve) => {
      let next = 0;
      const step = () => {
        if (this.options.isStopped()) return resolve();
        const end = Math.min(objects.length, next + 500);
        for (; next < end; next++) interner.intern(objects[next]);
        if (next < objects.length) {
          setImmediate(step);
          return;
        }
        // Strings seen once in the whole list are unique to their object: the table need
        // not keep them alive.
        interner.forgetCandidates();
        resolve();
      };
      setImmediate(step);
    });
  }

  /**
   * Resolves once the objects of the latest list have been compacted (their repeated strings
   * shared): the informer's memory is then at its steady state. Syncing does not wait for it.
   */
  idle(): Promise<void> {
    return this.compaction;
  }

  /** A watched object with its repeated strings shared (when the default transform is on). */
  interned(object: KubernetesObject | undefined): KubernetesObject | undefined {
    return object !== undefined && this.options.interner !== undefined
      ? this.options.interner.intern(object)
      : object;
  }

  /** Completes and transforms a freshly parsed object and appends it to `into`. */
  prepareInto(item: KubernetesObject, into: KubernetesObject[]): void {
    const prepared = this.prepare(item);
    if (prepared !== undefined) into.push(prepared);
  }

  /**
   * Completes a freshly parsed object (`kind` and `apiVersion`, which list items lack) and
   * transforms it; undefined (logged) for one without `metadata.name`. A transform that
   * throws is logged and the object stored untransformed.
   */
  prepare(item: KubernetesObject | undefined): KubernetesObject | undefined {
    if (typeof item !== 'object' || item === null || typeof item.metadata?.name !== 'string') {
      this.options.log.warn('ignoring an object without metadata.name');
      return undefined;
    }
    // Real API servers omit apiVersion and kind from list items; restore them so every
    // cached object says what it is.
    if (item.kind === undefined) item.kind = this.options.kind;
    if (item.apiVersion === undefined) item.apiVersion = this.options.apiVersion;
    try {
      return this.options.transform(item);
    } catch (error) {
      this.options.log.error({ err: error }, 'transform threw; storing the object untransformed');
      return item;
    }
  }
}
