import type { Reconciler, Request } from '../controller/reconcile.js';
import type { RingAssignment } from './ring-assignment.js';
import { type ShardField, ShardRanges } from './shard-ranges.js';

/** Options of a {@link ShardRangeGate}. */
export interface ShardRangeGateOptions {
  /** This replica's name in the ring. */
  identity: string;
  /** The field the server hashes (`object.metadata.namespace`). */
  field: ShardField;
  /** The value of that field for a request (its namespace). */
  valueOf(request: Request): string;
  /**
   * Applies this replica's share as the server-side selector of its sharded informers;
   * `owns` tells whether a value is in that share (for counting what leaves it).
   */
  select(selector: string, owns: (value: string) => boolean): void;
  /** When a request gained in a generation not yet active is tried again. */
  retryAfterMs: number;
}

/**
 * One replica's side of server-side sharding: which requests it may reconcile under the
 * ring's published {@link RingAssignment}, and when it may acknowledge a new generation.
 *
 * A request is reconciled only when this replica owns its value both in the newest generation
 * and in the active one. Since the sharder publishes a generation only once the previous one is
 * active, and activates it only once every live replica acknowledged it (adopted it and let
 * every reconcile outside its new share end), two replicas never both own a value in the pair
 * of generations they go by: no request is reconciled by two replicas at once. A request this
 * replica gained in a generation not yet active is tried again after `retryAfterMs`; one it
 * does not own is dropped (its owner's informer hears of it).
 */
export class ShardRangeGate {
  /** The newest generation this replica adopted and drained for (0: none). */
  acknowledged = 0;
  private newest = new ShardRanges([]);
  private active = new ShardRanges([]);
  private generation = 0;
  private readonly inFlight = new Map<object, string>();
  private readonly settled = new Set<() => void>();
  private readonly acknowledgements = new Set<(generation: number) => void>();

  constructor(private readonly options: ShardRangeGateOptions) {}

  /** Whether this replica may reconcile a request whose field has `value` now. */
  allows(value: string): boolean {
    const me = this.options.identity;
    return this.newest.ownerOf(value) === me && this.active.ownerOf(value) === me;
  }

  /**
   * Takes a published assignment: from now on only requests it allows start; the informers
   * select this replica's share in the newest generation. Resolves once every reconcile it no
   * longer allows has ended, with {@link acknowledged} then at least the generation adopted.
   */
  async adopt(assignment: RingAssignment): Promise<void> {
    this.generation = assignment.generation;
    if (this.newest.members.join(',') !== assignment.members.join(','))
      this.newest = new ShardRanges(assignment.members);
    if (this.active.members.join(',') !== assignment.activeMembers.join(','))
      this.active = new ShardRanges(assignment.activeMembers);
    const newest = this.newest;
    this.options.select(
      newest.selectorOf(this.options.identity, this.options.field),
      (value) => newest.ownerOf(value) === this.options.identity,
    );
    const generation = assignment.generation;
    while ([...this.inFlight.values()].some((value) => !this.allows(value)))
      await new Promise<void>((resolve) => this.settled.add(resolve));
    if (this.generation === generation && this.acknowledged < generation) {
      this.acknowledged = generation;
      for (const listener of this.acknowledgements) listener(generation);
    }
  }

  /**
   * Calls `listener` each time {@link acknowledged} rises, with the generation (to publish it
   * at once, to count what the generation moved). Returns the function that removes it.
   */
  onAcknowledged(listener: (generation: number) => void): () => void {
    this.acknowledgements.add(listener);
    return () => this.acknowledgements.delete(listener);
  }

  /** Wraps a reconciler so that it runs only for requests this replica may reconcile. */
  wrap(reconciler: Reconciler): Reconciler {
    return async (request, context) => {
      const value = this.options.valueOf(request);
      if (!this.allows(value))
        return this.newest.ownerOf(value) === this.options.identity
          ? { requeueAfterMs: this.options.retryAfterMs }
          : {};
      const token = {};
      this.inFlight.set(token, value);
      try {
        return await reconciler(request, context);
      } finally {
        this.inFlight.delete(token);
        const waiting = [...this.settled];
        this.settled.clear();
        for (const resolve of waiting) resolve();
      }
    };
  }
}
