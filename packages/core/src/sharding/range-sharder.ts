import pino, { type Logger } from 'pino';
import { Informer } from '../cache/informer.js';
import { isConflict } from '../client/api-error-helpers.js';
import type { Client } from '../client/client.js';
import { type Clock, realClock } from '../clock/clock.js';
import { abortableSleep } from '../controller/abortable-sleep.js';
import type { KubeTransport } from '../transport/kube-transport.js';
import { deleteDeadLeases, fenceLapsed } from './fence-lapsed.js';
import {
  acknowledgedGeneration,
  assignmentAnnotations,
  assignmentLeaseName,
  nextAssignment,
  readAssignment,
} from './ring-assignment.js';
import {
  leaseDescriptor,
  RingMembership,
  type ShardLease,
  type ShardMember,
} from './ring-membership.js';
import { ringLabel } from './shard-labels.js';
import type { ShardingMetrics } from './sharding-metrics.js';

/** Options of a {@link RangeSharder}. */
export interface RangeSharderOptions {
  ring: string;
  /** The identity of the replica running it (written as `sharder/<identity>` when fencing). */
  identity: string;
  transport: KubeTransport;
  /** A client without cache. */
  client: Client;
  /** Namespace of the ring's Leases. */
  leaseNamespace: string;
  /** How often lease expiry is judged (the manager's retry period). */
  retryPeriodMs: number;
  metrics: ShardingMetrics;
  logger?: Logger;
  clock?: Clock;
}

/**
 * The sharder of a ring sharded by server-side selectors (KEP-5866): run by the holder of the
 * ring's sharder Lease, it assigns nothing per object. It publishes who is in the ring on the
 * assignment Lease `<ring>-assignment` ({@link RingAssignment}): a new generation when the
 * ready replicas change, made active once every live replica acknowledged it on its shard
 * Lease; it fences lapsed shard Leases (only then is a silent replica out of the count) and
 * deletes dead ones that no generation names. It keeps no state but the Leases, so a new
 * sharder takes over where the last one stopped.
 */
export class RangeSharder {
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly membership = new RingMembership();

  constructor(private readonly options: RangeSharderOptions) {
    this.log = (options.logger ?? pino({ level: 'silent' })).child({
      component: 'sharder',
      ring: options.ring,
    });
    this.clock = options.clock ?? realClock;
  }

  /** Shards until `signal` aborts; resolves once its watch stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const leases = new Informer({
      transport: this.options.transport,
      descriptor: leaseDescriptor,
      namespace: this.options.leaseNamespace,
      labelSelector: `${ringLabel}=${this.options.ring}`,
      logger: this.log,
    });
    let wake: (() => void) | undefined;
    const nudge = () => wake?.();
    leases.addEventHandler({ onAdd: nudge, onUpdate: nudge, onDelete: nudge });
    leases.start();
    try {
      await leases.waitForSync(120_000);
      this.log.info('sharder started (server-side shard selectors)');
      while (!signal.aborted) {
        await this.step(leases, signal);
        await Promise.race([
          abortableSleep(this.options.retryPeriodMs, signal),
          new Promise<void>((resolve) => {
            wake = resolve;
          }),
        ]);
        wake = undefined;
      }
    } finally {
      await leases.stop();
      this.log.info('sharder stopped');
    }
  }

  private async step(leases: Informer, signal: AbortSignal): Promise<void> {
    const name = assignmentLeaseName(this.options.ring);
    const all = leases.list() as ShardLease[];
    const members = this.membership.update(all, this.clock.now());
    await fenceLapsed(
      members,
      this.options.client,
      `sharder/${this.options.identity}`,
      this.log,
      signal,
    );
    const lease = all.find((candidate) => candidate.metadata?.name === name);
    const current = readAssignment(lease);
    const ready = members.filter((m) => m.state === 'ready').map((m) => m.shard);
    const live = new Map(
      members
        .filter((m) => m.state !== 'dead')
        .map((m) => [m.shard, acknowledgedGeneration(m.lease)]),
    );
    const next = nextAssignment(current, ready, live);
    this.options.metrics.ringMembers(this.options.ring, ready.length);
    if (next !== undefined) {
      const metadata = {
        name,
        namespace: this.options.leaseNamespace,
        labels: { [ringLabel]: this.options.ring },
        annotations: { ...lease?.metadata?.annotations, ...assignmentAnnotations(next) },
      };
      try {
        if (lease === undefined)
          await this.options.client.create({
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata,
            spec: {},
          });
        else
          await this.options.client.update({
            ...lease,
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { ...lease.metadata, ...metadata },
          });
        this.log.info(
          { generation: next.generation, members: next.members, active: next.active },
          next.active === next.generation && current?.active !== next.active
            ? 'ring generation active'
            : 'ring generation published',
        );
      } catch (error) {
        // Another sharder wrote first, or the watch is behind: the next step reads again.
        if (!isConflict(error)) throw error;
      }
    }
    await this.collect(members, next ?? current);
  }

  /** Deletes dead shard Leases that neither generation names. */
  private async collect(
    members: readonly ShardMember[],
    assignment: { members: string[]; activeMembers: string[] } | undefined,
  ): Promise<void> {
    const named = new Set([...(assignment?.members ?? []), ...(assignment?.activeMembers ?? [])]);
    await deleteDeadLeases(
      members,
      (shard) => named.has(shard),
      this.options.client,
      this.options.leaseNamespace,
      this.log,
    );
  }
}
