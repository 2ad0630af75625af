import type { StoreEvent } from '../store/object-store.js';
import type { ReconcileResult } from './reconcile-loop.js';

/**
 * One simulated control loop. The cluster feeds it every store event through `keysFor` and
 * runs `reconcile` for the keys it returns on its own {@link ReconcileLoop}.
 */
export interface Controller {
  /** Names the controller in error reports, e.g. `deployment`. */
  readonly name: string;
  /**
   * The keys to reconcile because of an event of `resource` (`group/plural`). Called
   * synchronously from the store listener: must be cheap, must not write, must not throw.
   */
  keysFor(resource: string, event: StoreEvent): Iterable<string>;
  /**
   * The keys whose scheduled reconciles are pointless after an event of `resource` (a deleted
   * Pod's timer): the cluster cancels them. Same rules as `keysFor`.
   */
  keysToCancel?(resource: string, event: StoreEvent): Iterable<string>;
  /** The keys to reconcile when the controller starts (every object it manages). */
  initialKeys(): Iterable<string>;
  /**
   * Brings one key's objects to their desired state, reading the current state (never the
   * event). May throw: the loop retries with backoff.
   */
  reconcile(key: string): Promise<ReconcileResult | undefined>;
}
