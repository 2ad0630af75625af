import type { WatchEventType as ApiWatchEventType, KubernetesObject } from '@ops/api';
import { KeyRange, type KeyRangeBounds } from './key-range.js';

/** What happened to a stored object, as a watch reports it (bookmarks and errors are not changes). */
export type WatchEventType = Extract<ApiWatchEventType, 'ADDED' | 'MODIFIED' | 'DELETED'>;

/**
 * An object as stored. `object` is never mutated once stored (writers store a new copy), so
 * it can be shared with readers and serialized once.
 */
export class StoredObject {
  private serialized: string | undefined;
  private encoded: Buffer | undefined;

  constructor(
    readonly key: string,
    readonly object: KubernetesObject,
    readonly resourceVersion: number,
  ) {}

  /** The object as JSON, computed once. */
  json(): string {
    this.serialized ??= JSON.stringify(this.object);
    return this.serialized;
  }

  /**
   * The object as UTF-8 JSON bytes, computed once (lists are assembled from these). Made
   * without keeping {@link json}'s string when nothing asked for it: an object only ever
   * listed holds its JSON once, not twice (at 100,000 Pods, 570 MB less heap).
   */
  bytes(): Buffer {
    this.encoded ??= Buffer.from(this.serialized ?? JSON.stringify(this.object));
    return this.encoded;
  }

  /** A deep copy that the caller may change. */
  copy(): KubernetesObject {
    return JSON.parse(this.json()) as KubernetesObject;
  }
}

/** One change in a resource's history. `previous` is the state before it, if there was one. */
export interface StoreEvent {
  type: WatchEventType;
  resourceVersion: number;
  current: StoredObject;
  previous: StoredObject | undefined;
}

/** Receives the events of one resource, in resourceVersion order, synchronously. */
export type StoreListener = (event: StoreEvent) => void;

class ResourceData {
  readonly objects = new Map<string, StoredObject>();
  /** The most recent events, oldest first, from index `historyStart` on. */
  history: StoreEvent[] = [];
  historyStart = 0;
  /** The resourceVersion before which history is no longer complete. */
  compactedRevision = 0;
  readonly listeners = new Set<StoreListener>();
  private sortedKeys: string[] | undefined;

  keysInOrder(): string[] {
    this.sortedKeys ??= [...this.objects.keys()].sort();
    return this.sortedKeys;
  }

  invalidateOrder(): void {
    this.sortedKeys = undefined;
  }
}

/** Options of an {@link ObjectStore}. */
export interface ObjectStoreOptions {
  /** Events kept per resource for watches and consistent paging (default 10,000). */
  historySize?: number;
}

/** Why a read at an old resourceVersion failed. */
export class TooOldResourceVersionError extends Error {
  override readonly name = 'TooOldResourceVersionError';
  constructor(
    readonly requested: number,
    readonly oldest: number,
  ) {
    super(`too old resource version: ${requested} (${oldest})`);
  }
}

/**
 * The storage of the local API server: objects by resource and key (`namespace/name`, or
 * `name` for cluster-scoped objects), one cluster-wide resourceVersion counter, a bounded
 * history of changes per resource, and listeners for watches.
 *
 * Guarantees: every write takes the next resourceVersion; listeners of a resource see its
 * events in resourceVersion order, synchronously, exactly once; a read at an older
 * resourceVersion is answered from history when history still covers it and fails with
 * {@link TooOldResourceVersionError} otherwise.
 *
 * Assumes: callers have validated objects, and never mutate a stored object.
 */
export class ObjectStore {
  private revision = 0;
  private readonly resources = new Map<string, ResourceData>();
  private readonly globalListeners = new Set<(resource: string, event: StoreEvent) => void>();
  private historySize: number;
  /** The revision at or before which every resource's history was compacted away. */
  private compactedAt = 0;

  constructor(options: ObjectStoreOptions = {}) {
    this.historySize = Math.max(1, options.historySize ?? 10_000);
  }

  /** The latest resourceVersion handed out. */
  currentRevision(): number {
    return this.revision;
  }

  /**
   * Resolves `true` once the latest resourceVersion is at least `revision` (at once when it
   * already is), `false` when `timeoutMs` pass first. For reads that ask for a
   * resourceVersion the store has not reached yet.
   */
  waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.revision >= revision) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const done = (reached: boolean) => {
        clearTimeout(timer);
        this.globalListeners.delete(listener);
        resolve(reached);
      };
      const listener = () => {
        if (this.revision >= revision) done(true);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.globalListeners.add(listener);
    });
  }

  /** Takes the next resourceVersion. */
  nextRevision(): number {
    this.revision += 1;
    return this.revision;
  }

  /** Changes how many events each resource keeps; applies as new events arrive. */
  setHistorySize(size: number): void {
    this.historySize = Math.max(1, size);
    for (const data of this.resources.values()) this.trim(data);
  }

  private data(resource: string): ResourceData {
    let data = this.resources.get(resource);
    if (data === undefined) {
      // A resource seen for the first time has lost no events since the last compaction.
      data = new ResourceData();
      data.compactedRevision = this.compactedAt;
      this.resources.set(resource, data);
    }
    return data;
  }

  get(resource: string, key: string): StoredObject | undefined {
    return this.resources.get(resource)?.objects.get(key);
  }

  /** The number of objects of a resource. */
  count(resource: string): number {
    return this.resources.get(resource)?.objects.size ?? 0;
  }

  /** The objects of a resource now, in key order. */
  list(resource: string): StoredObject[] {
    const data = this.resources.get(resource);
    if (data === undefined) return [];
    return data.keysInOrder().map((key) => data.objects.get(key) as StoredObject);
  }

  /**
   * The objects of a resource in a key range, now (`atRevision` undefined) or as they were at
   * `atRevision`, read lazily in key order: a page costs what it reads plus the writes since
   * `atRevision`, not the size of the resource (see {@link KeyRange}).
   *
   * @throws {TooOldResourceVersionError} when history no longer reaches `atRevision`.
   */
  range(resource: string, bounds: KeyRangeBounds, atRevision?: number): KeyRange {
    const data = this.resources.get(resource) ?? new ResourceData();
    const past = new Map<string, StoredObject | undefined>();
    if (atRevision !== undefined && atRevision < this.revision) {
      if (atRevision < data.compactedRevision) {
        throw new TooOldResourceVersionError(atRevision, data.compactedRevision + 1);
      }
      // Walks the history in place, newest first: no copy of it per page.
      for (let i = data.history.length - 1; i >= data.historyStart; i--) {
        const event = data.history[i] as StoreEvent;
        if (event.resourceVersion <= atRevision) break;
        // Walking newest to oldest, the last state written wins: the one at `atRevision`.
        past.set(event.current.key, event.previous);
      }
    }
    return new KeyRange(data.keysInOrder(), data.objects, past, bounds);
  }

  private eventsInOrder(data: ResourceData): StoreEvent[] {
    return data.historyStart === 0 ? data.history : data.history.slice(data.historyStart);
  }

  /**
   * The events of a resource after `revision`, oldest first.
   *
   * @throws {TooOldResourceVersionError} when history no longer reaches back to `revision`.
   */
  eventsSince(resource: string, revision: number): StoreEvent[] {
    const data = this.data(resource);
    if (revision < data.compactedRevision) {
      throw new TooOldResourceVersionError(revision, data.compactedRevision + 1);
    }
    const events = this.eventsInOrder(data);
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((events[mid] as StoreEvent).resourceVersion <= revision) lo = mid + 1;
      else hi = mid;
    }
    return events.slice(lo);
  }

  /** Stores a new object under the next resourceVersion, which the caller has set on it. */
  create(resource: string, key: string, object: KubernetesObject, revision: number): StoredObject {
    const data = this.data(resource);
    const stored = new StoredObject(key, object, revision);
    data.objects.set(key, stored);
    data.invalidateOrder();
    this.record(
      data,
      { type: 'ADDED', resourceVersion: revision, current: stored, previous: undefined },
      resource,
    );
    return stored;
  }

  /** Replaces a stored object; the caller has set `revision` on it. */
  update(resource: string, key: string, object: KubernetesObject, revision: number): StoredObject {
    const data = this.data(resource);
    const previous = data.objects.get(key);
    const stored = new StoredObject(key, object, revision);
    data.objects.set(key, stored);
    if (previous === undefined) data.invalidateOrder();
    this.record(
      data,
      {
        type: previous === undefined ? 'ADDED' : 'MODIFIED',
        resourceVersion: revision,
        current: stored,
        previous,
      },
      resource,
    );
    return stored;
  }

  /** Removes an object; `object` is its final state, carrying `revision`. */
  remove(resource: string, key: string, object: KubernetesObject, revision: number): StoredObject {
    const data = this.data(resource);
    const previous = data.objects.get(key);
    const stored = new StoredObject(key, object, revision);
    data.objects.delete(key);
    data.invalidateOrder();
    this.record(
      data,
      { type: 'DELETED', resourceVersion: revision, current: stored, previous },
      resource,
    );
    return stored;
  }

  private record(data: ResourceData, event: StoreEvent, resource: string): void {
    data.history.push(event);
    this.trim(data);
    for (const listener of data.listeners) listener(event);
    for (const listener of this.globalListeners) listener(resource, event);
  }

  private trim(data: ResourceData): void {
    const excess = data.history.length - data.historyStart - this.historySize;
    if (excess <= 0) return;
    const lastDropped = data.history[data.historyStart + excess - 1];
    if (lastDropped !== undefined) data.compactedRevision = lastDropped.resourceVersion;
    data.historyStart += excess;
    // Compact the array once the dropped prefix dominates, so memory stays bounded and the
    // amortised cost per event is constant.
    if (data.historyStart > this.historySize) {
      data.history = data.history.slice(data.historyStart);
      data.historyStart = 0;
    }
  }

  /** How many listeners are subscribed: to one resource ({@link subscribe}) or to all. */
  listenerCount(): number {
    let count = this.globalListeners.size;
    for (const data of this.resources.values()) count += data.listeners.size;
    return count;
  }

  /** Calls `listener` with every later event of `resource`; returns the unsubscribe function. */
  subscribe(resource: string, listener: StoreListener): () => void {
    const data = this.data(resource);
    data.listeners.add(listener);
    return () => data.listeners.delete(listener);
  }

  /**
   * Calls `listener` with every later event of every resource, after the resource's own
   * listeners; returns the unsubscribe function. For the simulated cluster's controllers.
   */
  subscribeAll(listener: (resource: string, event: StoreEvent) => void): () => void {
    this.globalListeners.add(listener);
    return () => this.globalListeners.delete(listener);
  }

  /** The resources that hold objects or listeners. */
  resourceNames(): string[] {
    return [...this.resources.keys()];
  }

  /** Drops every object of a resource without events (its type is gone), and its history. */
  dropResource(resource: string): void {
    this.resources.delete(resource);
  }

  /**
   * Compacts every resource's history up to `revision`, as etcd's compaction does: events at
   * or before it are dropped, and reads and watches from a resourceVersion before it fail
   * as too old ({@link TooOldResourceVersionError}); resources first seen later start their
   * history there too. A `revision` at or below an earlier compaction changes nothing.
   */
  compact(revision: number): void {
    if (revision <= this.compactedAt) return;
    this.compactedAt = revision;
    for (const data of this.resources.values()) {
      if (data.compactedRevision >= revision) continue;
      data.compactedRevision = revision;
      const events = this.eventsInOrder(data);
      let keep = 0;
      while (keep < events.length && (events[keep] as StoreEvent).resourceVersion <= revision)
        keep++;
      data.history = events.slice(keep);
      data.historyStart = 0;
    }
  }

  /** The revision of the latest {@link compact} (0 when history was never compacted). */
  compactedRevision(): number {
    return this.compactedAt;
  }

  /**
   * Empties the store as a wiped etcd would be: every object and its history gone, the
   * resourceVersion counter back to 0, no compaction. Listeners of resources are dropped
   * (end their watches first); those of {@link subscribeAll} stay and see later writes.
   */
  reset(): void {
    this.resources.clear();
    this.revision = 0;
    this.compactedAt = 0;
  }

  /**
   * Forgets all history, as a restarted API server without its watch cache would: reads and
   * watches from any earlier resourceVersion then fail as too old.
   */
  forgetHistory(): void {
    this.compact(this.revision);
  }
}
