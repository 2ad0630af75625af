import type { KubernetesObject } from '@ops/api';
import type { Clock } from '../clock/clock.js';
import { compareResourceVersions, type ResourceVersionOrder } from './resource-version-order.js';

/** A write of this process the cache has not shown yet. */
interface PendingWrite {
  readonly resourceVersion: string;
  /** A delete: the object gone (or, with finalizers, carrying this resourceVersion) is seen. */
  readonly deleted: boolean;
  /** The controller that wrote it (see `runAsWriter`), if any. */
  readonly writer: string | undefined;
  readonly recordedAt: number;
  /** Called with true once the cache shows the write, with false when the wait gives up. */
  readonly waiters: Set<(seen: boolean) => void>;
}

/** Settings of {@link OwnWrites}. */
export interface OwnWritesOptions {
  clock: Clock;
  /** How long a read waits for the cache to show a write before giving up. */
  timeoutMs: number;
  /** The server's resourceVersion order, asked once, when first needed. */
  detectOrder: () => Promise<ResourceVersionOrder>;
}

/** Pending writes kept at most this long (or 10 timeouts) when nothing shows or awaits them. */
const minimumRetentionMs = 60_000;
/** Writes recorded between two sweeps of forgotten entries. */
const sweepEvery = 1024;

/**
 * The writes this process made that its informers have not delivered yet, per kind and
 * object: what read-your-writes waits on.
 *
 * A write is seen once the cache holds the object at the written resourceVersion, or, where
 * resourceVersions are `comparable`, at a newer one; a delete is seen once the object is gone
 * (or holds the delete's resourceVersion, while finalizers run). Until the order is known it
 * is taken as `exact`, which never calls an older version seen. A later write of an object
 * replaces its earlier one (seeing it implies the earlier). Seen writes are dropped once the
 * event that showed them has been handled (a microtask later), so that event handlers can
 * still tell the writer's own event ({@link isOwnEvent}); writes never seen are dropped by a
 * timed-out wait or after `max(1 min, 10 × timeoutMs)`.
 */
export class OwnWrites {
  private readonly pending = new Map<string, Map<string, PendingWrite>>();
  /** Writes sent and not answered yet, by `kindKey\nobjectKey`: their writers and answers. */
  private readonly sent = new Map<
    string,
    Array<{ writer: string; answer: Promise<string | undefined> }>
  >();
  private order: ResourceVersionOrder | undefined;
  private detecting: Promise<ResourceVersionOrder> | undefined;
  private recorded = 0;

  constructor(private readonly options: OwnWritesOptions) {}

  /** The detected order, or undefined before detection finished. */
  get resourceVersionOrder(): ResourceVersionOrder | undefined {
    return this.order;
  }

  /**
   * Records a write of object `objectKey` of kind `kindKey`, unless `cached` (what the cache
   * holds now) already shows it.
   */
  record(
    kindKey: string,
    objectKey: string,
    resourceVersion: string,
    deleted: boolean,
    writer: string | undefined,
    cached: KubernetesObject | undefined,
  ): void {
    this.detect();
    const byKey = this.pending.get(kindKey);
    const previous = byKey?.get(objectKey);
    const entry: PendingWrite = {
      resourceVersion,
      deleted,
      writer,
      recordedAt: this.options.clock.now(),
      waiters: previous?.waiters ?? new Set(),
    };
    if (this.shows(entry, cached, cached === undefined)) {
      if (previous !== undefined) this.resolve(kindKey, objectKey, previous, true);
      return;
    }
    if (byKey === undefined) this.pending.set(kindKey, new Map([[objectKey, entry]]));
    else byKey.set(objectKey, entry);
    if (++this.recorded % sweepEvery === 0) this.sweep();
  }

  /**
   * An informer of the kind applied a change: `object` is stored now (`removed` false) or was
   * removed (`removed` true, `object` its last state). Resolves the waits it satisfies.
   */
  observe(kindKey: string, objectKey: string, object: KubernetesObject, removed: boolean): void {
    const entry = this.pending.get(kindKey)?.get(objectKey);
    if (entry === undefined || !this.shows(entry, object, removed)) return;
    for (const waiter of entry.waiters) waiter(true);
    entry.waiters.clear();
    // Kept until the handlers of this event have run, so they can tell it is the writer's own.
    queueMicrotask(() => this.forget(kindKey, objectKey, entry));
  }

  /** Whether `writer` made the write `object` (an event's object) shows. */
  isOwnEvent(
    writer: string,
    kindKey: string,
    objectKey: string,
    object: KubernetesObject,
  ): boolean {
    const entry = this.pending.get(kindKey)?.get(objectKey);
    return (
      entry !== undefined &&
      entry.writer === writer &&
      entry.resourceVersion === object.metadata?.resourceVersion
    );
  }

  /**
   * Notes that `writer` sent a write of the object and waits for its answer; call the
   * function returned with the answer's resourceVersion (undefined when it failed). Until
   * then, {@link answerOfSentWrites} lets an event that arrives before the answer wait for it.
   */
  begin(kindKey: string, objectKey: string, writer: string): (resourceVersion?: string) => void {
    const key = `${kindKey}\n${objectKey}`;
    const answered = Promise.withResolvers<string | undefined>();
    const entry = { writer, answer: answered.promise };
    const list = this.sent.get(key);
    if (list === undefined) this.sent.set(key, [entry]);
    else list.push(entry);
    return (resourceVersion) => {
      const current = this.sent.get(key);
      const index = current?.indexOf(entry) ?? -1;
      if (current !== undefined && index >= 0) {
        current.splice(index, 1);
        if (current.length === 0) this.sent.delete(key);
      }
      answered.resolve(resourceVersion);
    };
  }

  /**
   * The resourceVersions `writer`'s unanswered writes of the object will answer, once they
   * are answered; undefined when it has none in flight (the usual case).
   */
  answerOfSentWrites(
    writer: string,
    kindKey: string,
    objectKey: string,
  ): Promise<Array<string | undefined>> | undefined {
    const mine = this.sent
      .get(`${kindKey}\n${objectKey}`)
      ?.filter((entry) => entry.writer === writer);
    if (mine === undefined || mine.length === 0) return undefined;
    return Promise.all(mine.map((entry) => entry.answer));
  }

  /** Whether a write of the kind is pending (cheap; the reads' fast path). */
  hasPending(kindKey: string): boolean {
    return (this.pending.get(kindKey)?.size ?? 0) > 0;
  }

  /**
   * Waits until the cache shows this process's pending writes of the kind: of one object
   * (`objectKey`), or of every object whose key starts with `prefix` (`namespace/`, or ``
   * for all). `lookup` gives what the cache holds now for a key. Resolves true once they are
   * shown (at once when none is pending), false when one is not within the timeout (the
   * caller should then read from the API server).
   */
  async awaitSeen(
    kindKey: string,
    keys: { objectKey: string } | { prefix: string },
    lookup: (objectKey: string) => KubernetesObject | undefined,
  ): Promise<boolean> {
    if (!this.hasPending(kindKey)) return true;
    if (this.order === undefined) await this.detect();
    const byKey = this.pending.get(kindKey);
    if (byKey === undefined) return true;
    const waits: Promise<boolean>[] = [];
    for (const [objectKey, entry] of byKey) {
      if ('objectKey' in keys ? objectKey !== keys.objectKey : !objectKey.startsWith(keys.prefix))
        continue;
      const cached = lookup(objectKey);
      if (this.shows(entry, cached, cached === undefined)) {
        this.resolve(kindKey, objectKey, entry, true);
        continue;
      }
      waits.push(this.wait(kindKey, objectKey, entry));
    }
    return (await Promise.all(waits)).every(Boolean);
  }

  private wait(kindKey: string, objectKey: string, entry: PendingWrite): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const timer = this.options.clock.setTimeout(() => {
        // Given up: every wait on it reads from the server, and later reads do not wait again.
        const current = this.pending.get(kindKey)?.get(objectKey);
        this.resolve(kindKey, objectKey, current ?? entry, false);
      }, this.options.timeoutMs);
      entry.waiters.add((seen) => {
        this.options.clock.clearTimeout(timer);
        resolve(seen);
      });
    });
  }

  private resolve(kindKey: string, objectKey: string, entry: PendingWrite, seen: boolean): void {
    for (const waiter of entry.waiters) waiter(seen);
    entry.waiters.clear();
    this.forget(kindKey, objectKey, entry);
  }

  private forget(kindKey: string, objectKey: string, entry: PendingWrite): void {
    const byKey = this.pending.get(kindKey);
    if (byKey?.get(objectKey) !== entry) return;
    byKey.delete(objectKey);
    if (byKey.size === 0) this.pending.delete(kindKey);
  }

  /** Whether the cache, holding `object` (or not, `removed`), shows the write. */
  private shows(
    entry: PendingWrite,
    object: KubernetesObject | undefined,
    removed: boolean,
  ): boolean {
    const version = object?.metadata?.resourceVersion;
    const comparison =
      this.order === 'comparable' && version
        ? compareResourceVersions(version, entry.resourceVersion)
        : undefined;
    if (removed) {
      // Gone: a delete is seen; any write is, where the removal is known to be newer.
      return entry.deleted || (comparison !== undefined && comparison >= 0);
    }
    if (version === entry.resourceVersion) return true;
    return comparison !== undefined && comparison >= 0;
  }

  private detect(): Promise<ResourceVersionOrder> {
    if (this.detecting === undefined) {
      this.detecting = this.options.detectOrder().then((order) => {
        this.order = order;
        return order;
      });
    }
    return this.detecting;
  }

  /** Drops writes nobody waits for that the cache never showed, after their retention. */
  private sweep(): void {
    const cutoff =
      this.options.clock.now() - Math.max(minimumRetentionMs, 10 * this.options.timeoutMs);
    for (const [kindKey, byKey] of this.pending) {
      for (const [objectKey, entry] of byKey) {
        if (entry.recordedAt < cutoff && entry.waiters.size === 0)
          this.forget(kindKey, objectKey, entry);
      }
    }
  }
}
