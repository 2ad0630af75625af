import type { KubernetesObject } from '@ops/api';
import pino, { type Logger } from 'pino';
import { Informer } from '../cache/informer.js';
import type { InformerCache } from '../cache/informer-cache.js';
import { isNotFound } from '../client/api-error-helpers.js';
import type { Client } from '../client/client.js';
import { abortableSleep } from '../controller/abortable-sleep.js';
import type { Reconciler } from '../controller/reconcile.js';
import type { KindRef } from '../crd/owner-reference-permissions.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import { LeaderElector, type LeaseTiming } from '../leader-election/leader-election.js';
import type { KubeTransport } from '../transport/kube-transport.js';
import { RangeSharder } from './range-sharder.js';
import { acknowledgedAnnotation, assignmentLeaseName, readAssignment } from './ring-assignment.js';
import { leaseDescriptor } from './ring-membership.js';
import {
  drainLabel,
  ringLabel,
  sharderLeaseName,
  shardLabel,
  shardLeaseName,
  shardNameLabel,
} from './shard-labels.js';
import type { ShardRangeGate } from './shard-range-gate.js';
import { Sharder } from './sharder.js';
import type { ShardingMetrics } from './sharding-metrics.js';

/** Options of a {@link ShardMember}. */
export interface ShardMemberOptions {
  ring: string;
  /** This replica's name in the ring (a label value). */
  identity: string;
  leaseNamespace: string;
  transport: KubeTransport;
  restMapper: RestMapper;
  /** A client without cache, for the sharder's writes. */
  sharderClient: Client;
  /** Namespace of the sharded objects (default all). */
  namespace?: string;
  forKind: KindRef;
  ownedKinds: KindRef[];
  /** Lease timing of the ring (the manager's leader-election timing). */
  timing: LeaseTiming;
  /**
   * How the ring is sharded, decided before {@link ShardMember.run}: the sharder's labels
   * (keyed by `key`), or server-side shard selectors through `gate`.
   */
  mechanism():
    | { kind: 'labels'; key?: (object: KubernetesObject) => string }
    | { kind: 'ranges'; gate: ShardRangeGate };
  metrics: ShardingMetrics;
  logger?: Logger;
  /** Starts the ring's controllers (once this replica holds its shard Lease). */
  startControllers(): void;
  /** Stops them, letting in-flight reconciles finish (before the Lease is released). */
  stopControllers(): Promise<void>;
}

/**
 * One replica's part in a ring: it holds its shard Lease `<ring>-<identity>` (labelled
 * `sharding.ops.dev/ring=<ring>` and `sharding.ops.dev/shard=<identity>`) and runs the ring's
 * controllers only while it holds it, as leader election does for one Lease: they start once
 * it is acquired and stop when it cannot be renewed within the renew deadline; on a graceful
 * stop they stop first and the Lease is released after, so the sharder moves this replica's
 * objects at once. Every replica also campaigns for the ring's sharder Lease
 * `<ring>-sharder`; the holder runs the {@link Sharder}, or, when the ring is sharded by
 * server-side selectors, the {@link RangeSharder}: then this replica also follows the ring's
 * assignment Lease into its {@link ShardRangeGate} and writes what the gate acknowledged on
 * its shard Lease with every renewal.
 */
export class ShardMember {
  private readonly log: Logger;

  constructor(private readonly options: ShardMemberOptions) {
    this.log = (options.logger ?? pino({ level: 'silent' })).child({
      ring: options.ring,
      shard: options.identity,
    });
  }

  /**
   * Takes part until `signal` aborts. Rejects when the shard Lease was lost (not renewed in
   * time) while running: this replica stopped reconciling and its objects move; the caller
   * decides how to exit.
   */
  async run(signal: AbortSignal): Promise<void> {
    const { ring, identity, leaseNamespace, transport, timing } = this.options;
    const inner = new AbortController();
    const onAbort = () => inner.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const mechanism = this.options.mechanism();
    const gate = mechanism.kind === 'ranges' ? mechanism.gate : undefined;
    const assignment = gate === undefined ? undefined : this.followAssignment(gate);
    const sharding = new LeaderElector({
      transport,
      namespace: leaseNamespace,
      name: sharderLeaseName(ring),
      identity,
      ...timing,
      logger: this.log,
    }).run(inner.signal, { onStartedLeading: (leading) => this.runSharder(leading) });
    let lost = false;
    const shard = new LeaderElector({
      transport,
      namespace: leaseNamespace,
      name: shardLeaseName(ring, identity),
      identity,
      labels: { [ringLabel]: ring, [shardNameLabel]: identity },
      ...(gate
        ? { annotations: () => ({ [acknowledgedAnnotation]: String(gate.acknowledged) }) }
        : {}),
      ...timing,
      logger: this.log,
    });
    // An acknowledged generation is published at once: the sharder activates it only once
    // every live replica's shard Lease says so.
    const unsubscribe = gate?.onAcknowledged(() => shard.renewSoon());
    try {
      await shard.run(inner.signal, {
        onStartedLeading: async (holding) => {
          this.log.info('holding the shard lease; starting the ring controllers');
          this.options.startControllers();
          if (!holding.aborted)
            await new Promise<void>((resolve) =>
              holding.addEventListener('abort', () => resolve(), { once: true }),
            );
          await this.options.stopControllers();
        },
        onStoppedLeading: () => {
          lost = !inner.signal.aborted;
        },
      });
    } finally {
      unsubscribe?.();
      signal.removeEventListener('abort', onAbort);
      inner.abort();
      await sharding;
      await assignment?.stop();
    }
    if (lost)
      throw new Error(
        `sharding: the shard lease ${leaseNamespace}/${shardLeaseName(ring, identity)} could not be renewed in time; this replica stopped reconciling ring ${ring} and exits so its objects move to the others`,
      );
  }

  /**
   * Watches the ring's assignment Lease and hands each version to `gate` (server-side
   * sharding); returns the informer, started.
   */
  private followAssignment(gate: ShardRangeGate): Informer {
    const informer = new Informer({
      transport: this.options.transport,
      descriptor: leaseDescriptor,
      namespace: this.options.leaseNamespace,
      fieldSelector: `metadata.name=${assignmentLeaseName(this.options.ring)}`,
      logger: this.log,
    });
    const adopt = (lease: KubernetesObject) => {
      const assignment = readAssignment(lease);
      if (assignment === undefined) return;
      gate.adopt(assignment).catch((error: unknown) => {
        this.log.error({ err: error }, 'could not adopt the ring assignment');
      });
    };
    informer.addEventHandler({ onAdd: adopt, onUpdate: (_old, lease) => adopt(lease) });
    informer.start();
    return informer;
  }

  /** Runs the sharder while leading; a failed start is retried after a retry period. */
  private async runSharder(leading: AbortSignal): Promise<void> {
    const o = this.options;
    const mechanism = o.mechanism();
    while (!leading.aborted) {
      try {
        if (mechanism.kind === 'ranges') {
          await new RangeSharder({
            ring: o.ring,
            identity: o.identity,
            transport: o.transport,
            client: o.sharderClient,
            leaseNamespace: o.leaseNamespace,
            retryPeriodMs: o.timing.retryPeriodMs,
            metrics: o.metrics,
            logger: this.log,
          }).run(leading);
          continue;
        }
        await new Sharder({
          ...(mechanism.key ? { key: mechanism.key } : {}),
          ring: o.ring,
          identity: o.identity,
          transport: o.transport,
          client: o.sharderClient,
          restMapper: o.restMapper,
          leaseNamespace: o.leaseNamespace,
          ...(o.namespace ? { namespace: o.namespace } : {}),
          forKind: o.forKind,
          ownedKinds: o.ownedKinds,
          retryPeriodMs: o.timing.retryPeriodMs,
          leaseDurationSeconds: Math.max(1, Math.ceil(o.timing.leaseDurationMs / 1000)),
          metrics: o.metrics,
          logger: this.log,
        }).run(leading);
      } catch (error) {
        this.log.error({ err: error }, 'the sharder failed; restarting it');
        await abortableSleep(o.timing.retryPeriodMs, leading);
      }
    }
  }
}

/** What {@link shardedReconciler} needs. */
export interface ShardedReconcilerOptions {
  ring: string;
  identity: string;
  forKind: KindRef;
  cache: Pick<InformerCache, 'get'>;
  client: Pick<Client, 'patch'>;
  metrics: ShardingMetrics;
  reconciler: Reconciler;
}

/**
 * Wraps a sharded controller's reconciler: a request runs it only when this replica's
 * cache holds the object assigned to this replica and not being drained. When the drain
 * label is set, the object is handed back instead: both labels removed by a patch
 * conditional on the resourceVersion read. Since a controller never reconciles one request
 * twice at once, the hand-back happens after the last reconcile of the object here ended,
 * and the object then leaves this replica's cache (its watch no longer selects it).
 */
export function shardedReconciler(options: ShardedReconcilerOptions): Reconciler {
  const shardKey = shardLabel(options.ring);
  const drainKey = drainLabel(options.ring);
  return async (request, context) => {
    const { apiVersion, kind } = options.forKind;
    const object: KubernetesObject | undefined = options.cache.get(
      apiVersion,
      kind,
      request.namespace || undefined,
      request.name,
    );
    const labels = object?.metadata?.labels ?? {};
    // Not (or no longer) this replica's: nothing to do here.
    if (object === undefined || labels[shardKey] !== options.identity) return {};
    if (!(drainKey in labels)) return options.reconciler(request, context);
    try {
      await options.client.patch(
        {
          apiVersion,
          kind,
          metadata: {
            name: request.name,
            ...(request.namespace ? { namespace: request.namespace } : {}),
          },
        },
        {
          metadata: {
            resourceVersion: object.metadata?.resourceVersion,
            labels: { [shardKey]: null, [drainKey]: null },
          },
        },
        'merge',
      );
      options.metrics.drainAcknowledged(options.ring, options.identity);
      context.log.info('drained: handed the object back to the sharder');
    } catch (error) {
      // Gone: nothing to hand back. A Conflict (changed since read) is retried by the
      // controller, reading the cache afresh.
      if (!isNotFound(error)) throw error;
    }
    return {};
  };
}
