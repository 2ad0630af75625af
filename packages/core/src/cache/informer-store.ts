import type { KubernetesObject } from '@ops/api';

/**
 * Computes the values under which an object is indexed (for example the node name of a
 * Pod, or the names of the Secrets it mounts).
 *
 * Assumes: pure and deterministic (the same object gives the same values): the store calls
 * it again on the old object to unindex it. An exception counts as "no values" and is
 * reported.
 */
export type IndexFunc = (object: KubernetesObject) => readonly string[];

/** The name of the built-in index by namespace (cluster-scoped objects are under ``). */
export const namespaceIndex = 'namespace';

/**
 * The store key of an object: `namespace/name`, or `name` for a cluster-scoped object.
 *
 * Assumes: the object has `metadata.name`; a missing one gives an empty name.
 */
export function objectKey(object: KubernetesObject): string {
  const namespace = object.metadata?.namespace;
  const name = object.metadata?.name ?? '';
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * Splits a store key from {@link objectKey} into namespace (`` when cluster-scoped) and name.
 * Guarantees: `splitObjectKey(objectKey(o))` gives back o's namespace and name.
 */
export function splitObjectKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

interface Index {
  readonly fn: IndexFunc;
  readonly values: Map<string, Set<KubernetesObject>>;
}

const noValues: readonly string[] = [];

/**
 * The objects of one informer, keyed by namespace and name, with field indexes.
 *
 * Layout, chosen for memory: a map per namespace from name to the object itself, so there is
 * no key string per object and no copy of it; the namespace index is this layout. Custom
 * indexes map each value to the set of objects that carry it.
 *
 * Guarantees: every operation but {@link list}, {@link keys} and {@link addIndex} is O(1) in
 * the number of objects (plus the number of index values of the objects touched). Objects
 * are stored and handed out by reference.
 *
 * Assumes: stored objects are not mutated while stored (they are replaced by
 * {@link upsert}); index functions are deterministic.
 */
export class InformerStore {
  private readonly namespaces = new Map<string, Map<string, KubernetesObject>>();
  private readonly indexes = new Map<string, Index>();
  private count = 0;

  /** @param onIndexError called when an index function throws (the object is left unindexed there). */
  constructor(
    private readonly onIndexError: (
      index: string,
      object: KubernetesObject,
      error: unknown,
    ) => void = () => {},
  ) {}

  /** How many objects are stored. */
  get size(): number {
    return this.count;
  }

  /** The object `namespace/name` (namespace `` for cluster-scoped), if stored. */
  get(namespace: string, name: string): KubernetesObject | undefined {
    return this.namespaces.get(namespace)?.get(name);
  }

  /** The object of a key from {@link objectKey}, if stored. */
  getByKey(key: string): KubernetesObject | undefined {
    const { namespace, name } = splitObjectKey(key);
    return this.get(namespace, name);
  }

  /** Every stored object (O(n)). */
  list(): KubernetesObject[] {
    const out: KubernetesObject[] = [];
    for (const objects of this.namespaces.values())
      for (const object of objects.values()) out.push(object);
    return out;
  }

  /** The objects of one namespace (`` for cluster-scoped objects). */
  listNamespace(namespace: string): KubernetesObject[] {
    const objects = this.namespaces.get(namespace);
    return objects === undefined ? [] : [...objects.values()];
  }

  /** The keys ({@link objectKey}) of every stored object (O(n)). */
  keys(): string[] {
    const out: string[] = [];
    for (const [namespace, objects] of this.namespaces) {
      for (const name of objects.keys()) out.push(namespace ? `${namespace}/${name}` : name);
    }
    return out;
  }

  /** Calls `visit` for every stored object. Assumes: `visit` does not change the store. */
  forEach(visit: (object: KubernetesObject) => void): void {
    for (const objects of this.namespaces.values())
      for (const object of objects.values()) visit(object);
  }

  /** Whether an index of that name exists (the built-in `namespace` index always does). */
  hasIndex(name: string): boolean {
    return name === namespaceIndex || this.indexes.has(name);
  }

  /**
   * Adds an index and indexes the objects already stored (O(n)).
   *
   * @throws {Error} when an index of that name exists (`namespace` is built in).
   */
  addIndex(name: string, fn: IndexFunc): void {
    if (this.hasIndex(name)) {
      throw new Error(`an index named "${name}" already exists; pick another name`);
    }
    const index: Index = { fn, values: new Map() };
    this.indexes.set(name, index);
    this.forEach((object) => {
      this.indexObject(name, index, object);
    });
  }

  /**
   * The objects whose index `name` holds `value`; for `namespace`, the objects of that
   * namespace.
   *
   * @throws {Error} when there is no index of that name.
   */
  byIndex(name: string, value: string): KubernetesObject[] {
    if (name === namespaceIndex) return this.listNamespace(value);
    const index = this.indexes.get(name);
    if (index === undefined) {
      throw new Error(
        `there is no index named "${name}"; add it with addIndex("${name}", fn) before reading it`,
      );
    }
    const objects = index.values.get(value);
    return objects === undefined ? [] : [...objects];
  }

  /** The values index `name` holds at least one object for. @throws {Error} as {@link byIndex}. */
  indexValues(name: string): string[] {
    if (name === namespaceIndex) return [...this.namespaces.keys()];
    const index = this.indexes.get(name);
    if (index === undefined) throw new Error(`there is no index named "${name}"`);
    return [...index.values.keys()];
  }

  /**
   * Stores `object` under its namespace and name, replacing and unindexing the one there.
   * Returns the object it replaced, if any.
   */
  upsert(object: KubernetesObject): KubernetesObject | undefined {
    const namespace = object.metadata?.namespace ?? '';
    const name = object.metadata?.name ?? '';
    let objects = this.namespaces.get(namespace);
    if (objects === undefined) {
      objects = new Map();
      this.namespaces.set(namespace, objects);
    }
    const old = objects.get(name);
    objects.set(name, object);
    if (old === undefined) this.count++;
    if (this.indexes.size > 0) {
      for (const [indexName, index] of this.indexes) {
        if (old !== undefined) this.unindexObject(indexName, index, old);
        this.indexObject(indexName, index, object);
      }
    }
    return old;
  }

  /** Removes and unindexes `namespace/name`; returns the object removed, if any. */
  remove(namespace: string, name: string): KubernetesObject | undefined {
    const objects = this.namespaces.get(namespace);
    const old = objects?.get(name);
    if (objects === undefined || old === undefined) return undefined;
    objects.delete(name);
    if (objects.size === 0) this.namespaces.delete(namespace);
    this.count--;
    for (const [indexName, index] of this.indexes) this.unindexObject(indexName, index, old);
    return old;
  }

  private valuesOf(indexName: string, index: Index, object: KubernetesObject): readonly string[] {
    try {
      return index.fn(object);
    } catch (error) {
      this.onIndexError(indexName, object, error);
      return noValues;
    }
  }

  private indexObject(indexName: string, index: Index, object: KubernetesObject): void {
    for (const value of this.valuesOf(indexName, index, object)) {
      let objects = index.values.get(value);
      if (objects === undefined) {
        objects = new Set();
        index.values.set(value, objects);
      }
      objects.add(object);
    }
  }

  private unindexObject(indexName: string, index: Index, object: KubernetesObject): void {
    for (const value of this.valuesOf(indexName, index, object)) {
      const objects = index.values.get(value);
      if (objects === undefined) continue;
      objects.delete(object);
      if (objects.size === 0) index.values.delete(value);
    }
  }
}
