import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { StoredObject, StoreEvent } from '../store/object-store.js';
import { specOf } from './json.js';

/** Labels, or a selector that matches them: `key → value`. */
export type LabelMap = Record<string, string>;

/** The bucket name of one `key=value` pair in one namespace (NUL cannot occur in either). */
const pairKey = (namespace: string, key: string, value: string): string =>
  `${namespace}\u0000${key}\u0000${value}`;

const namespaceOf = (object: KubernetesObject): string => object.metadata?.namespace ?? '';

/** Orders by store key, the order `ObjectStore.list` returns. */
const byKey = (a: [string, KubernetesObject], b: [string, KubernetesObject]): number =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;

/**
 * A Service-style selector (`spec.selector` as a plain label map, values taken as strings),
 * or undefined when the object has none or an empty one. The endpoints controller reads
 * Services' selectors the same way.
 */
export function mapSelectorOf(object: KubernetesObject): LabelMap | undefined {
  const selector = specOf(object).selector;
  if (!isJsonObject(selector) || Object.keys(selector).length === 0) return undefined;
  return Object.fromEntries(Object.entries(selector).map(([k, v]) => [k, String(v)]));
}

/** Whether every pair of `selector` is among `labels`. */
export function labelsMatch(selector: LabelMap, labels: LabelMap | undefined): boolean {
  for (const key in selector) if (labels?.[key] !== selector[key]) return false;
  return true;
}

/**
 * The objects of one resource, indexed the ways the simulated controllers look them up: by
 * namespace, by each label pair, by the uid of their controller (`ownerReferences[]` with
 * `controller: true`, any kind) and, for objects with a map `spec.selector` (Services), by
 * the first pair of that selector in key order.
 *
 * Every query answers what a scan of all objects with the same test would, in store key
 * order, at a cost of the candidates it reads rather than the size of the resource. The
 * index holds the stored objects themselves: callers must not mutate them.
 */
export class ResourceIndex {
  private readonly objects = new Map<string, KubernetesObject>();
  /** namespace → key → object */
  private readonly namespaces = new Map<string, Map<string, KubernetesObject>>();
  /** pairKey(namespace, label, value) → keys of the objects carrying that label */
  private readonly labels = new Map<string, Set<string>>();
  /** controller uid → keys of the objects it controls */
  private readonly controllers = new Map<string, Set<string>>();
  /** pairKey(namespace, key, value) of a selector's first pair → keys of the selecting objects */
  private readonly selectors = new Map<string, Set<string>>();

  /** An index of `stored` (the store's current objects of one resource). */
  static of(stored: Iterable<StoredObject>): ResourceIndex {
    const index = new ResourceIndex();
    for (const { key, object } of stored) index.add(key, object);
    return index;
  }

  /** The number of objects indexed. */
  get size(): number {
    return this.objects.size;
  }

  /** Follows one store event of the resource: the key now holds `current`, or nothing once deleted. */
  apply(event: StoreEvent): void {
    const key = event.current.key;
    this.remove(key);
    if (event.type !== 'DELETED') this.add(key, event.current.object);
  }

  /** The objects of `namespace`, in key order. */
  inNamespace(namespace: string): KubernetesObject[] {
    return sorted(this.namespaces.get(namespace)?.entries() ?? []);
  }

  /**
   * The objects of `namespace` whose labels include every pair of `selector` (all of the
   * namespace for an empty selector), in key order. Reads the smallest bucket of the pairs.
   */
  withLabels(namespace: string, selector: LabelMap): KubernetesObject[] {
    let smallest: Set<string> | undefined;
    for (const [key, value] of Object.entries(selector)) {
      const bucket = this.labels.get(pairKey(namespace, key, value));
      if (bucket === undefined) return [];
      if (smallest === undefined || bucket.size < smallest.size) smallest = bucket;
    }
    if (smallest === undefined) return this.inNamespace(namespace);
    return this.pick(smallest, (object) => labelsMatch(selector, object.metadata?.labels));
  }

  /** The objects of `namespace` whose controller has `uid`, in key order. */
  controlledBy(namespace: string, uid: string): KubernetesObject[] {
    const bucket = this.controllers.get(uid);
    if (bucket === undefined) return [];
    return this.pick(bucket, (object) => namespaceOf(object) === namespace);
  }

  /**
   * The objects of `namespace` with a non-empty map `spec.selector` that `labels` satisfy
   * (every pair of the selector is among them), in key order.
   */
  selecting(namespace: string, labels: LabelMap | undefined): KubernetesObject[] {
    const found = new Map<string, KubernetesObject>();
    for (const [key, value] of Object.entries(labels ?? {})) {
      for (const candidate of this.selectors.get(pairKey(namespace, key, value)) ?? []) {
        const object = this.objects.get(candidate);
        const selector = object === undefined ? undefined : mapSelectorOf(object);
        if (object !== undefined && selector !== undefined && labelsMatch(selector, labels))
          found.set(candidate, object);
      }
    }
    return sorted(found.entries());
  }

  private pick(keys: Set<string>, test: (object: KubernetesObject) => boolean): KubernetesObject[] {
    const found: Array<[string, KubernetesObject]> = [];
    for (const key of keys) {
      const object = this.objects.get(key);
      if (object !== undefined && test(object)) found.push([key, object]);
    }
    return found.sort(byKey).map(([, object]) => object);
  }

  private add(key: string, object: KubernetesObject): void {
    const namespace = namespaceOf(object);
    this.objects.set(key, object);
    let inNamespace = this.namespaces.get(namespace);
    if (inNamespace === undefined) {
      inNamespace = new Map();
      this.namespaces.set(namespace, inNamespace);
    }
    inNamespace.set(key, object);
    for (const bucket of this.bucketsOf(object)) {
      const [map, name] = bucket;
      let keys = map.get(name);
      if (keys === undefined) {
        keys = new Set();
        map.set(name, keys);
      }
      keys.add(key);
    }
  }

  private remove(key: string): void {
    const object = this.objects.get(key);
    if (object === undefined) return;
    this.objects.delete(key);
    const namespace = namespaceOf(object);
    const inNamespace = this.namespaces.get(namespace);
    inNamespace?.delete(key);
    if (inNamespace?.size === 0) this.namespaces.delete(namespace);
    for (const [map, name] of this.bucketsOf(object)) {
      const keys = map.get(name);
      keys?.delete(key);
      if (keys?.size === 0) map.delete(name);
    }
  }

  /** Every bucket an object belongs in, besides its namespace. */
  private bucketsOf(object: KubernetesObject): Array<[Map<string, Set<string>>, string]> {
    const namespace = namespaceOf(object);
    const buckets: Array<[Map<string, Set<string>>, string]> = [];
    for (const [key, value] of Object.entries(object.metadata?.labels ?? {}))
      buckets.push([this.labels, pairKey(namespace, key, value)]);
    const controller = object.metadata?.ownerReferences?.find((r) => r.controller === true);
    if (controller?.uid) buckets.push([this.controllers, controller.uid]);
    const selector = mapSelectorOf(object);
    if (selector !== undefined) {
      const first = Object.keys(selector).sort()[0] as string;
      buckets.push([this.selectors, pairKey(namespace, first, selector[first] as string)]);
    }
    return buckets;
  }
}

function sorted(entries: Iterable<[string, KubernetesObject]>): KubernetesObject[] {
  return [...entries].sort(byKey).map(([, object]) => object);
}
