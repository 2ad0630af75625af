/**
 * The messages between the sharded-scale-out benchmark and its replica processes
 * (`shard-replica-child.ts`), and the annotations by which the parent stamps its writes.
 */

import type { ShardBy } from '../benchmark.js';

/** What a replica process is started with (its one argument, as JSON). */
export interface ShardReplicaJob {
  url: string;
  kubeconfigPath: string;
  /** The namespace of the ring's Leases (the ConfigMaps are watched in every namespace). */
  leaseNamespace: string;
  /** The ConfigMaps the parent measures: those whose name starts with this. */
  objectPrefix: string;
  /** What the ring hashes (`withOptions({ sharding: { by } })`). */
  by: ShardBy;
  /** The replica's identity in the ring (a label value). */
  identity: string;
  ring: string;
  /** Reconciles at once per replica (`maxConcurrentReconciles`). */
  workers: number;
  /** How long each reconcile waits, standing for an external call. */
  reconcileMs: number;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** The annotation naming the round of the parent's last write of an object. */
export const roundAnnotation = 'bench.ops.dev/round';
/** The annotation holding when the parent sent that write (`Date.now()`, ms). */
export const writtenAtAnnotation = 'bench.ops.dev/written-at';
/** The round of objects as seeded (no annotation). */
export const seedRound = 'seed';

/**
 * The first reconcile of one object in a round: its `namespace/name`, when the parent sent
 * the write (NaN for the seed round), and when the reconcile started and ended (ms,
 * `Date.now()`).
 */
export type ReconcileSample = [key: string, writtenAt: number, startedAt: number, endedAt: number];

/** What the parent asks. */
export type ShardParentMessage =
  /** How many objects of `round` this replica has reconciled (first reconciles). */
  | { type: 'count'; round: string }
  /** Every sample of `round`. */
  | { type: 'samples'; round: string }
  /** Its heap after a full collection, and its resident set. */
  | { type: 'memory' }
  /** Hold every reconcile at its start until `resume` (answered once held from then on). */
  | { type: 'pause' }
  /** Let the held reconciles and every later one run (answered at once). */
  | { type: 'resume' }
  /** How many requests wait: queued (`workqueue_depth`) or held by `pause`. */
  | { type: 'pending' }
  /** Stop the manager (releasing the Lease) and exit. */
  | { type: 'stop' };

/** What a replica answers. */
export type ShardChildMessage =
  | { type: 'started' }
  | { type: 'count'; round: string; count: number }
  | { type: 'samples'; round: string; samples: ReconcileSample[] }
  | { type: 'memory'; heapUsed: number; rss: number }
  | { type: 'paused' }
  | { type: 'resumed' }
  | { type: 'pending'; pending: number }
  | { type: 'stopped' }
  | { type: 'failed'; error: string };
