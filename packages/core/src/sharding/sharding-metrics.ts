import type { Counter, Gauge } from 'prom-client';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { UnregisterMetric } from '../queue/workqueue-metrics.js';

/** Name of the gauge of the objects a replica owns, per ring and shard. */
export const shardObjectsMetricName = 'ops_sharding_shard_objects';
/** Name of the counter of objects moved away from a shard, per ring, shard and reason. */
export const shardReassignmentsMetricName = 'ops_sharding_reassignments_total';
/** Name of the counter of drains a replica acknowledged, per ring and shard. */
export const shardDrainsMetricName = 'ops_sharding_drains_acknowledged_total';
/** Name of the gauge of the ring's ready members, as the sharder sees them. */
export const ringMembersMetricName = 'ops_sharding_ring_members';

/** Why the sharder moved an object away from its shard. */
export type ReassignmentReason = 'drain' | 'dead';

/**
 * The metrics of sharding, in a manager's {@link MetricsRegistry}:
 *
 * - `ops_sharding_shard_objects{ring, shard}`: objects of the ring's kind this replica
 *   caches, i.e. owns (read at scrape time from its informer);
 * - `ops_sharding_reassignments_total{ring, shard, reason}`: objects the sharder started to
 *   move away from `shard`, by `drain` (the shard is alive: drain handshake) or `dead` (its
 *   lease lapsed or was released: moved at once). Sharded by server-side selectors, no
 *   sharder sees objects: each replica counts, as `drain`, the objects of the ring's kind in
 *   its cache that fall outside its share when it adopts a new generation; a dead replica's
 *   objects are not counted (they show as the new owners' `shard_objects` rising);
 * - `ops_sharding_drains_acknowledged_total{ring, shard}`: objects whose drain this replica
 *   acknowledged (by labels: handed back one by one; by selectors: those counted at adoption,
 *   once every reconcile outside its new share ended);
 * - `ops_sharding_ring_members{ring}`: ready members, exported by the replica that is the
 *   ring's sharder.
 */
export class ShardingMetrics {
  private readonly reassignments: Counter<'ring' | 'shard' | 'reason'>;
  private readonly drains: Counter<'ring' | 'shard'>;
  private readonly members: Gauge<'ring'>;

  constructor(private readonly registry: MetricsRegistry) {
    this.reassignments = registry.counter({
      name: shardReassignmentsMetricName,
      help: 'Objects the sharder moved away from a shard, by reason (drain: alive shard, drain handshake; dead: lapsed or released lease)',
      labelNames: ['ring', 'shard', 'reason'],
    });
    this.drains = registry.counter({
      name: shardDrainsMetricName,
      help: 'Drains of objects this replica acknowledged (it stopped reconciling them)',
      labelNames: ['ring', 'shard'],
    });
    this.members = registry.gauge({
      name: ringMembersMetricName,
      help: 'Ready members of the ring, as its sharder sees them',
      labelNames: ['ring'],
    });
  }

  /** Exports the count of objects `shard` owns, read by `read` at each scrape. */
  ownedObjects(ring: string, shard: string, read: () => number): UnregisterMetric {
    return this.registry
      .polledGauge({
        name: shardObjectsMetricName,
        help: 'Objects of the ring kind this replica owns (caches and reconciles)',
        labelNames: ['ring', 'shard'],
      })
      .register({ ring, shard }, read);
  }

  /** Counts `objects` (default one) moved away from `shard`. */
  reassigned(ring: string, shard: string, reason: ReassignmentReason, objects = 1): void {
    this.reassignments.inc({ ring, shard, reason }, objects);
  }

  /** Counts `objects` (default one) whose drain `shard` acknowledged. */
  drainAcknowledged(ring: string, shard: string, objects = 1): void {
    this.drains.inc({ ring, shard }, objects);
  }

  ringMembers(ring: string, count: number): void {
    this.members.set({ ring }, count);
  }
}
