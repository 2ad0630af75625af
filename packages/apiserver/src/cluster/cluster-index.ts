import type { ObjectStore, StoreEvent } from '../store/object-store.js';
import { ResourceIndex } from './resource-index.js';

/**
 * The {@link ResourceIndex}es the simulated controllers read through, one per resource
 * (`group/plural`), built from the store the first time a resource is asked for.
 *
 * While following (between {@link follow} and {@link unfollow}) the owner must pass every
 * store event to {@link apply}, in order, before anything reads the index for that event;
 * built indexes are then kept and updated, so a lookup costs what it finds. While not
 * following, every lookup indexes the store afresh (a scan, as a read without an index
 * would be), so a stale answer is never given.
 *
 * The store drops objects without events in two cases (`dropResource` when a CRD goes,
 * `reset` when it is wiped). A kept index holds every object the store holds (each later
 * write is an event), so it can only hold more; when its size differs from the store's
 * count it is rebuilt before answering.
 */
export class ClusterIndex {
  private readonly resources = new Map<string, ResourceIndex>();
  private following = false;

  constructor(private readonly store: ObjectStore) {}

  /** Keeps indexes from now on; the caller promises to {@link apply} every store event. */
  follow(): void {
    this.following = true;
  }

  /** Drops every index and goes back to scanning the store on each lookup. */
  unfollow(): void {
    this.following = false;
    this.resources.clear();
  }

  /** Updates the index of `resource`, if one was built, with a store event. */
  apply(resource: string, event: StoreEvent): void {
    this.resources.get(resource)?.apply(event);
  }

  /** The index of `resource` (`group/plural`): kept while following, else built for this lookup. */
  of(resource: string): ResourceIndex {
    const kept = this.resources.get(resource);
    if (kept !== undefined && kept.size === this.store.count(resource)) return kept;
    const index = ResourceIndex.of(this.store.list(resource));
    if (this.following) this.resources.set(resource, index);
    return index;
  }
}
