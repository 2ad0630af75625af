import type { KubernetesObject } from '@ops/api';
import pino, { type Logger } from 'pino';
import { Informer } from '../cache/informer.js';
import { isAlreadyExists, isNotFound } from '../client/api-error-helpers.js';
import type { Client } from '../client/client.js';
import { type Clock, realClock } from '../clock/clock.js';
import { abortableSleep } from '../controller/abortable-sleep.js';
import { Controller } from '../controller/controller.js';
import { enqueueForOwner } from '../controller/event-handlers.js';
import type { KindRef } from '../crd/owner-reference-permissions.js';
import { apiVersionOfDescriptor, type ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import { microTime } from '../leader-election/leader-election.js';
import type { KubeTransport } from '../transport/kube-transport.js';
import { deleteDeadLeases, fenceLapsed } from './fence-lapsed.js';
import { HashRing } from './hash-ring.js';
import {
  leaseDescriptor,
  RingMembership,
  type ShardLease,
  type ShardMember,
  shardingKey,
} from './ring-membership.js';
import {
  drainLabel,
  ringLabel,
  shardLabel,
  shardLeaseName,
  shardNameLabel,
} from './shard-labels.js';
import type { ShardingMetrics } from './sharding-metrics.js';

/** Options of a {@link Sharder}. */
export interface SharderOptions {
  ring: string;
  /** The identity of the replica running the sharder (written as `sharder/<identity>` when it fences a Lease). */
  identity: string;
  transport: KubeTransport;
  /** A client without cache (the sharder's writes must not wait on the replica's own cache). */
  client: Client;
  restMapper: RestMapper;
  /** Namespace of the ring's Leases. */
  leaseNamespace: string;
  /** Namespace of the sharded objects (default: all namespaces). */
  namespace?: string;
  /** The kind the ring's controller reconciles. */
  forKind: KindRef;
  /** Kinds it owns: their objects follow their controlling owner's shard. */
  ownedKinds: KindRef[];
  /** What an object is hashed by (default {@link shardingKey}: namespace/name). */
  key?: (object: KubernetesObject) => string;
  /** How often lease expiry is judged (the manager's retry period). */
  retryPeriodMs: number;
  /** Lease duration written when fencing a Lease that no longer exists. */
  leaseDurationSeconds: number;
  metrics: ShardingMetrics;
  logger?: Logger;
  clock?: Clock;
}

/**
 * The sharder of a ring: run by one replica at a time (the holder of the ring's sharder
 * Lease), it assigns the objects of the ring's kind to the ring's ready members by
 * consistent hashing ({@link shardingKey}), writing {@link shardLabel}; the children of an
 * object (objects of the owned kinds whose controlling owner it is) get their owner's
 * label. It keeps no state but the labels and Leases, so a new sharder takes over where the
 * last one stopped.
 *
 * Per object (a workqueue of object keys, fed by a metadata-only watch of the kind, its
 * children and the ring's Leases):
 * - unassigned: its children get the desired shard, then the object (a write conditional
 *   on the resourceVersion read, so two sharders never both assign it);
 * - on a shard that is `dead` (released its Lease after stopping, or fenced): moved at once;
 * - on a `ready` shard that is not the desired one: drained: the drain label is set, and
 *   the object stays until that shard removes both labels (after its last reconcile of the
 *   object ended), when it is unassigned and assigned anew;
 * - on an `expired` or `lapsed` shard: left alone until the shard is fenced: its lease
 *   lapsed two lease durations ago (by this sharder's clock), then the sharder takes the
 *   Lease, conditionally on the resourceVersion it judged by, so a shard that renewed
 *   meanwhile is not fenced. A shard that cannot renew stops reconciling after its renew
 *   deadline, well before.
 *
 * Dead Leases no object is assigned to any more are deleted.
 */
export class Sharder {
  private readonly log: Logger;
  private readonly clock: Clock;
  private readonly membership = new RingMembership();
  private members: ShardMember[] = [];
  private ring = new HashRing([]);
  /** Shard name → objects of the kind labelled with it (from the watch). */
  private readonly owned = new Map<string, number>();
  /** Shards objects are assigned to but that have no Lease → when that was first seen. */
  private readonly absentSince = new Map<string, number>();
  private readonly shardKey: string;
  private readonly drainKey: string;

  constructor(private readonly options: SharderOptions) {
    this.log = (options.logger ?? pino({ level: 'silent' })).child({
      component: 'sharder',
      ring: options.ring,
    });
    this.clock = options.clock ?? realClock;
    this.shardKey = shardLabel(options.ring);
    this.drainKey = drainLabel(options.ring);
  }

  /** Shards until `signal` aborts; resolves once its watches and workers stopped. */
  async run(signal: AbortSignal): Promise<void> {
    const { transport, restMapper, forKind, namespace } = this.options;
    const forDescriptor = await restMapper.resourceFor(forKind.apiVersion, forKind.kind);
    const childDescriptors = await Promise.all(
      this.options.ownedKinds.map((kind) => restMapper.resourceFor(kind.apiVersion, kind.kind)),
    );
    const scope = namespace ? { namespace } : {};
    const leases = new Informer({
      transport,
      descriptor: leaseDescriptor,
      namespace: this.options.leaseNamespace,
      labelSelector: `${ringLabel}=${this.options.ring}`,
      logger: this.log,
    });
    const objects = new Informer({
      transport,
      descriptor: forDescriptor,
      ...scope,
      metadataOnly: true,
      logger: this.log,
    });
    const children = childDescriptors.map(
      (descriptor) =>
        new Informer({ transport, descriptor, ...scope, metadataOnly: true, logger: this.log }),
    );
    const work = new Controller({
      name: `${this.options.ring}-sharder`,
      reconciler: async (request) => {
        await this.assign(objects, children, request.namespace, request.name);
      },
      maxConcurrentReconciles: 4,
      logger: this.log,
    });
    const enqueue = (object: KubernetesObject) =>
      work.enqueue({
        namespace: object.metadata?.namespace ?? '',
        name: object.metadata?.name ?? '',
      });
    this.enqueue = enqueue;
    const count = (object: KubernetesObject | undefined, by: number) => {
      const shard = object?.metadata?.labels?.[this.shardKey];
      if (!shard) return;
      const next = (this.owned.get(shard) ?? 0) + by;
      if (next > 0) this.owned.set(shard, next);
      else this.owned.delete(shard);
    };
    objects.addEventHandler({
      onAdd: (object) => {
        count(object, 1);
        enqueue(object);
      },
      onUpdate: (old, object) => {
        count(old, -1);
        count(object, 1);
        if (JSON.stringify(old.metadata?.labels) !== JSON.stringify(object.metadata?.labels))
          enqueue(object);
      },
      onDelete: (object) => count(object, -1),
    });
    const owners = enqueueForOwner(forKind.apiVersion, forKind.kind, {
      ownerNamespaced: forDescriptor.namespaced,
    });
    for (const informer of children) {
      const follow = (child: KubernetesObject) => {
        for (const owner of owners(child)) {
          const parent = objects.get(owner.namespace, owner.name);
          const wanted = parent?.metadata?.labels?.[this.shardKey];
          if (wanted && child.metadata?.labels?.[this.shardKey] !== wanted) work.enqueue(owner);
        }
      };
      informer.addEventHandler({ onAdd: follow, onUpdate: (_old, child) => follow(child) });
      informer.addIndex('controller', (child) =>
        owners(child).map((owner) => `${owner.namespace}/${owner.name}`),
      );
    }
    leases.addEventHandler({
      onAdd: () => this.judge(leases, objects),
      onUpdate: () => this.judge(leases, objects),
      onDelete: () => this.judge(leases, objects),
    });
    const informers = [leases, objects, ...children];
    for (const informer of informers) informer.start();
    try {
      await Promise.all(informers.map((informer) => informer.waitForSync(120_000)));
      this.log.info('sharder started');
      this.judge(leases, objects);
      work.start();
      while (!signal.aborted) {
        await abortableSleep(this.options.retryPeriodMs, signal);
        if (signal.aborted) break;
        this.judge(leases, objects);
        await this.fence(signal);
        await this.collect();
      }
    } finally {
      await work.stop();
      await Promise.all(informers.map((informer) => informer.stop()));
      this.log.info('sharder stopped');
    }
  }

  /** Judges the Leases; when who is ready or dead changed, re-examines every object. */
  private judge(leases: Informer, objects: Informer): void {
    const before = this.signature();
    this.members = this.membership.update(leases.list() as ShardLease[], this.clock.now());
    const ready = this.members.filter((m) => m.state === 'ready').map((m) => m.shard);
    if (this.signature() === before) return;
    this.ring = new HashRing(ready);
    this.options.metrics.ringMembers(this.options.ring, ready.length);
    this.log.info(
      { members: this.members.map((m) => `${m.shard}:${m.state}`) },
      'ring membership changed',
    );
    // Through the queue: deduplicated, rate limited, retried on conflicts.
    for (const object of objects.list()) this.enqueue(object);
  }

  /** Queues an object for {@link assign} (set once the queue exists). */
  private enqueue: (object: KubernetesObject) => void = () => undefined;

  private signature(): string {
    return this.members
      .filter((m) => m.state === 'ready' || m.state === 'dead')
      .map((m) => `${m.shard}:${m.state}`)
      .join(',');
  }

  private stateOf(shard: string): ShardMember['state'] | 'absent' {
    return this.members.find((m) => m.shard === shard)?.state ?? 'absent';
  }

  /** Decides, and writes, the assignment of one object (and its children). */
  private async assign(
    objects: Informer,
    children: Informer[],
    namespace: string,
    name: string,
  ): Promise<void> {
    const object = objects.get(namespace, name);
    if (object === undefined || this.ring.isEmpty()) return;
    const labels = object.metadata?.labels ?? {};
    const current = labels[this.shardKey];
    const draining = this.drainKey in labels;
    const desired = this.ring.lookup((this.options.key ?? shardingKey)(object)) as string;
    if (!current) {
      await this.moveChildren(children, object, desired);
      await this.label(object, { [this.shardKey]: desired, [this.drainKey]: null });
      return;
    }
    if (current === desired) {
      if (!draining) await this.moveChildren(children, object, current);
      return;
    }
    const state = this.stateOf(current);
    if (state === 'dead') {
      await this.moveChildren(children, object, desired);
      await this.label(object, { [this.shardKey]: desired, [this.drainKey]: null });
      this.options.metrics.reassigned(this.options.ring, current, 'dead');
    } else if (state === 'ready' && !draining) {
      await this.label(object, { [this.drainKey]: 'true' });
      this.options.metrics.reassigned(this.options.ring, current, 'drain');
    }
    // Draining, or its shard expired or absent: wait (the drain acknowledgement, or the
    // fence, changes the labels or the membership, which brings the object back here).
  }

  /** Labels the object's children with `shard` (only those labelled otherwise). */
  private async moveChildren(
    children: Informer[],
    object: KubernetesObject,
    shard: string,
  ): Promise<void> {
    const key = `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
    for (const informer of children) {
      for (const child of informer.byIndex('controller', key)) {
        if (child.metadata?.labels?.[this.shardKey] === shard) continue;
        await this.label(child, { [this.shardKey]: shard }, informer.descriptor);
      }
    }
  }

  /** A merge patch of labels, conditional on the resourceVersion read (409 when it changed). */
  private async label(
    object: KubernetesObject,
    labels: Record<string, string | null>,
    descriptor?: ResourceDescriptor,
  ): Promise<void> {
    const kind = descriptor
      ? { apiVersion: apiVersionOfDescriptor(descriptor), kind: descriptor.kind }
      : this.options.forKind;
    const namespace = object.metadata?.namespace;
    try {
      await this.options.client.patch(
        {
          ...kind,
          metadata: { name: object.metadata?.name ?? '', ...(namespace ? { namespace } : {}) },
        },
        { metadata: { resourceVersion: object.metadata?.resourceVersion, labels } },
        'merge',
      );
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  /** Takes the Leases of lapsed shards, and of shards with objects but no Lease for long. */
  private async fence(signal: AbortSignal): Promise<void> {
    const now = this.clock.now();
    await fenceLapsed(this.members, this.options.client, this.holder(), this.log, signal);
    const known = new Set(this.members.map((m) => m.shard));
    for (const shard of this.absentSince.keys())
      if (known.has(shard) || !this.owned.has(shard)) this.absentSince.delete(shard);
    for (const shard of this.owned.keys()) {
      if (known.has(shard)) continue;
      const since = this.absentSince.get(shard);
      if (since === undefined) {
        this.absentSince.set(shard, now);
        continue;
      }
      if (now - since <= 2 * this.options.leaseDurationSeconds * 1000) continue;
      try {
        await this.options.client.create({
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: {
            name: shardLeaseName(this.options.ring, shard),
            namespace: this.options.leaseNamespace,
            labels: { [ringLabel]: this.options.ring, [shardNameLabel]: shard },
          },
          spec: {
            holderIdentity: this.holder(),
            leaseDurationSeconds: this.options.leaseDurationSeconds,
            renewTime: microTime(Date.now()),
          },
        });
        this.log.warn({ shard }, 'objects are assigned to a shard without a lease; fenced it');
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
  }

  /** Deletes dead Leases that no object is assigned to any more. */
  private async collect(): Promise<void> {
    await deleteDeadLeases(
      this.members,
      (shard) => this.owned.has(shard),
      this.options.client,
      this.options.leaseNamespace,
      this.log,
    );
  }

  private holder(): string {
    return `sharder/${this.options.identity}`;
  }
}
