import type { KubernetesObject, Selector } from '@ops/api';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { IndexFunc, InformerStore } from './informer-store.js';

/**
 * The read side of an informer: what is cached, by key, namespace, label selector or field
 * index. Objects are returned by reference (the cached objects, shared with every handler
 * and reader): do not mutate them. {@link Informer} fills the store.
 */
export abstract class InformerReader {
  constructor(
    /** The resource this informer lists and watches. */
    readonly descriptor: ResourceDescriptor,
    protected readonly store: InformerStore,
  ) {}

  /** How many objects are cached (for the cache's object-count gauge). O(1). */
  objectCount(): number {
    return this.store.size;
  }

  /**
   * The cached object `namespace/name` (namespace `` or omitted for cluster-scoped), by
   * reference: do not mutate it.
   */
  get(namespace: string | undefined, name: string): KubernetesObject | undefined {
    return this.store.get(this.descriptor.namespaced ? (namespace ?? '') : '', name);
  }

  /** The cached object of a `namespace/name` key, by reference: do not mutate it. */
  getByKey(key: string): KubernetesObject | undefined {
    return this.store.getByKey(key);
  }

  /** The keys (`namespace/name`, or `name`) of every cached object. O(n). */
  keys(): string[] {
    return this.store.keys();
  }

  /**
   * The cached objects, optionally of one namespace and matching a label selector, by
   * reference: do not mutate them. O(n) (O(objects in the namespace) with `namespace`).
   */
  list(options: { namespace?: string; labelSelector?: Selector } = {}): KubernetesObject[] {
    const objects =
      options.namespace !== undefined && this.descriptor.namespaced
        ? this.store.listNamespace(options.namespace)
        : this.store.list();
    const selector = options.labelSelector;
    if (selector === undefined || selector.isEverything()) return objects;
    return objects.filter((object) => selector.matches(object.metadata?.labels));
  }

  /**
   * Adds a field index (before or after start): `fn` gives the values an object is found
   * under with {@link byIndex}. The built-in `namespace` index always exists.
   *
   * @throws {Error} when an index of that name exists.
   */
  addIndex(name: string, fn: IndexFunc): void {
    this.store.addIndex(name, fn);
  }

  /** Whether an index of that name exists. */
  hasIndex(name: string): boolean {
    return this.store.hasIndex(name);
  }

  /**
   * The cached objects whose index `name` holds `value`, by reference: do not mutate them.
   *
   * @throws {Error} when there is no index of that name.
   */
  byIndex(name: string, value: string): KubernetesObject[] {
    return this.store.byIndex(name, value);
  }
}
