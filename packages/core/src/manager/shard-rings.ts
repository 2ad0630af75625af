import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Informer } from '../cache/informer.js';
import type { InformerCache } from '../cache/informer-cache.js';
import { splitObjectKey } from '../cache/informer-store.js';
import { Client } from '../client/client.js';
import type { ShardingOptions, WatchSpec } from '../controller/controller-builder.js';
import type { ObjectEvent, Predicate } from '../controller/predicates.js';
import type { Reconciler } from '../controller/reconcile.js';
import type { ControllerKinds } from '../crd/owner-reference-permissions.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import type { LeaseTiming } from '../leader-election/leader-election.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { leaseDescriptor } from '../sharding/ring-membership.js';
import { serverShardsWatches } from '../sharding/server-side-sharding.js';
import {
  checkRingName,
  checkShardIdentity,
  drainLabel,
  shardIdentityFrom,
  shardLabel,
} from '../sharding/shard-labels.js';
import { ShardMember, shardedReconciler } from '../sharding/shard-member.js';
import { ShardRangeGate } from '../sharding/shard-range-gate.js';
import { ShardRanges } from '../sharding/shard-ranges.js';
import { ShardingMetrics } from '../sharding/sharding-metrics.js';
import type { KubeTransport } from '../transport/kube-transport.js';

/** What {@link ShardRings} uses of its manager's parts. */
export interface ShardRingsHost {
  readonly cache: InformerCache;
  readonly client: Client;
  readonly transport: KubeTransport;
  readonly restMapper: RestMapper;
  readonly metrics: MetricsRegistry;
  readonly log: Logger;
}

/** How a manager runs its rings. */
export interface ShardRingsOptions {
  /** The manager's namespace, when it watches one only. */
  namespace?: string | undefined;
  /** The namespace of the shard Leases (read when the first ring is made). */
  leaseNamespace: () => string;
  /** The manager's `leaderElectionIdentity` as given: this replica's name in every ring. */
  identity?: string | undefined;
  timing: LeaseTiming;
  /** Starts the controllers of `ring` (its member holds its shard Lease). */
  startControllers(ring: string): void;
  /** Stops the controllers of `ring`; resolves once they stopped. */
  stopControllers(ring: string): Promise<void>;
}

/** A ring sharded by namespace: its mechanism, picked when the manager starts. */
interface NamespaceRing {
  forKind: ControllerKinds['for'];
  gate: ShardRangeGate;
  /** Undefined until {@link ShardRings.scopeFor} first asked the server. */
  mechanism?: Promise<'labels' | 'ranges'>;
  resolved?: 'labels' | 'ranges';
  /** The informers whose shard selector the gate sets, and the selector they have now. */
  informers: Informer[];
  selector: string;
  /** The informer of the `for()` kind, once {@link ShardRings.attach} saw it. */
  forInformer?: Informer;
  /** Objects counted leaving this replica's share whose drain is not yet acknowledged. */
  draining: number;
}

/**
 * The rings of one manager's sharded controllers (`withOptions({ sharding })`): each
 * controller's watches restricted to this replica's share (its shard label; for a ring sharded
 * by namespace on a server that shards watches, its hash ranges as a server-side selector,
 * picked at start by {@link scopeFor}), its reconciler wrapped to hand drained objects back (or
 * gated by its {@link ShardRangeGate}), and one {@link ShardMember} per ring holding this
 * replica's shard Lease. One identity (the manager's `leaderElectionIdentity`, else host name
 * plus a random suffix) names this replica in every ring.
 */
export class ShardRings {
  private readonly members = new Map<string, ShardMember>();
  private readonly byNamespace = new Map<string, NamespaceRing>();
  private identityValue: string | undefined;
  private metricsValue: ShardingMetrics | undefined;

  constructor(
    private readonly host: ShardRingsHost,
    private readonly options: ShardRingsOptions,
  ) {}

  /**
   * Sets up the ring of a sharded controller: checks its name and this replica's identity,
   * restricts the watches of its `for` and `owns` kinds to this replica's shard label (an
   * owned kind that a `watches()` also maps stays whole), wraps its reconciler and creates
   * the replica's {@link ShardMember}.
   *
   * @throws {Error} when another controller uses the ring, when the manager is a cold
   *   standby (a sharded replica needs warm caches), or when the controller `watches()` its
   *   own `for()` kind; from the name checks.
   */
  shard(
    ring: string,
    controller: string,
    watches: WatchSpec[],
    kinds: ControllerKinds,
    reconciler: Reconciler,
    coldStandby: boolean,
    by: ShardingOptions['by'] = 'name',
  ): { watches: WatchSpec[]; reconciler: Reconciler } {
    checkRingName(ring);
    if (by !== 'name' && by !== 'namespace')
      throw new Error(
        `controller ${controller} is sharded by "${String(by)}": sharding.by is 'name' (the default) or 'namespace'`,
      );
    if (this.members.has(ring))
      throw new Error(
        `controller ${controller} uses sharding ring "${ring}", which another controller of this manager uses; a ring shards one controller: give it its own ring name`,
      );
    if (coldStandby)
      throw new Error(
        `controller ${controller} is sharded, which needs warm caches: leave enableWarmup on (a sharded replica reconciles its share whether or not it leads)`,
      );
    const sameKind = (a: WatchSpec, b: WatchSpec) =>
      a.kind.apiVersion === b.kind.apiVersion &&
      a.kind.kind === b.kind.kind &&
      (a.onlyMetadata ?? false) === (b.onlyMetadata ?? false);
    const mapped = watches.filter((watch) => watch.source === 'watches');
    const primary = watches.find((watch) => watch.source === 'for');
    if (primary && mapped.some((watch) => sameKind(watch, primary)))
      throw new Error(
        `controller ${controller} is sharded and also watches() its for() kind ${kinds.for.kind}: each replica sees only its own ${kinds.for.kind} objects, so map other objects to requests instead`,
      );
    const identity = this.identity();
    const selector = `${shardLabel(ring)}=${identity}`;
    const restricted = watches.map((watch) =>
      watch.source === 'for' ||
      (watch.source === 'owns' && !mapped.some((other) => sameKind(other, watch)))
        ? by === 'name'
          ? { ...watch, labelSelector: selector }
          : { ...watch, shardedBy: ring }
        : watch,
    );
    const { cache, client, transport, restMapper, log: logger } = this.host;
    const { namespace, timing } = this.options;
    const metrics = this.metrics();
    let byNamespace: NamespaceRing | undefined;
    if (by === 'namespace') {
      const entry: NamespaceRing = {
        forKind: kinds.for,
        informers: [],
        selector: new ShardRanges([]).selectorOf(identity, 'object.metadata.namespace'),
        gate: new ShardRangeGate({
          identity,
          field: 'object.metadata.namespace',
          valueOf: (request) => request.namespace,
          select: (next, owns) => {
            // No sharder sees the objects here: this replica counts what leaves its share.
            const leaving = (entry.forInformer?.keys() ?? []).filter(
              (key) => !owns(splitObjectKey(key).namespace),
            ).length;
            if (leaving > 0) {
              metrics.reassigned(ring, identity, 'drain', leaving);
              entry.draining += leaving;
            }
            entry.selector = next;
            for (const informer of entry.informers) informer.setShardSelector(next);
          },
          retryAfterMs: timing.retryPeriodMs,
        }),
        draining: 0,
      };
      entry.gate.onAcknowledged(() => {
        if (entry.draining > 0) metrics.drainAcknowledged(ring, identity, entry.draining);
        entry.draining = 0;
      });
      byNamespace = entry;
      this.byNamespace.set(ring, entry);
    }
    this.members.set(
      ring,
      new ShardMember({
        ring,
        identity,
        leaseNamespace: this.options.leaseNamespace(),
        transport,
        restMapper,
        sharderClient: new Client({ transport, restMapper }),
        ...(namespace ? { namespace } : {}),
        forKind: kinds.for,
        ownedKinds: kinds.owns.map((owned) => owned.kind),
        timing,
        metrics,
        logger,
        mechanism: () =>
          byNamespace?.resolved === 'ranges'
            ? { kind: 'ranges', gate: byNamespace.gate }
            : byNamespace !== undefined
              ? { kind: 'labels', key: (object) => object.metadata?.namespace ?? '' }
              : { kind: 'labels' },
        startControllers: () => this.options.startControllers(ring),
        stopControllers: () => this.options.stopControllers(ring),
      }),
    );
    const { apiVersion, kind } = kinds.for;
    metrics.ownedObjects(ring, identity, () =>
      cache
        .objectCounts()
        .filter((entry) => entry.apiVersion === apiVersion && entry.kind === kind)
        .reduce((sum, entry) => sum + entry.count, 0),
    );
    const byLabels = shardedReconciler({
      ring,
      identity,
      forKind: kinds.for,
      cache,
      client,
      metrics,
      reconciler,
    });
    if (byNamespace === undefined) return { watches: restricted, reconciler: byLabels };
    const byRanges = byNamespace.gate.wrap(reconciler);
    const entry = byNamespace;
    return {
      watches: restricted,
      reconciler: (request, context) =>
        entry.resolved === 'ranges' ? byRanges(request, context) : byLabels(request, context),
    };
  }

  /**
   * The selector a watch of a ring's controller starts with: for a watch the ring picks
   * (`shardedBy`), the shard label, or the server-side shard selector of this replica's share
   * when the API server shards watches (asked once per ring, the first time); nothing for
   * others (their `labelSelector`, if any, was set when the controller was made).
   *
   * @throws {Error} when a ring sharded by namespace reconciles a cluster-scoped kind.
   */
  async scopeFor(
    ring: string,
    watch: WatchSpec,
  ): Promise<{ labelSelector?: string; shardSelector?: string }> {
    const entry = this.byNamespace.get(ring);
    if (entry === undefined || watch.shardedBy !== ring) return {};
    entry.mechanism ??= this.mechanismOf(ring, entry);
    entry.resolved = await entry.mechanism;
    return entry.resolved === 'ranges'
      ? { shardSelector: entry.selector }
      : { labelSelector: `${shardLabel(ring)}=${this.identity()}` };
  }

  /** Lets the ring change the shard selector of an informer {@link scopeFor} scoped. */
  attach(ring: string, watch: WatchSpec, informer: Informer): void {
    const entry = this.byNamespace.get(ring);
    if (entry?.resolved !== 'ranges' || watch.shardedBy !== ring) return;
    if (!entry.informers.includes(informer)) entry.informers.push(informer);
    if (watch.source === 'for') entry.forInformer = informer;
    informer.setShardSelector(entry.selector);
  }

  private async mechanismOf(ring: string, entry: NamespaceRing): Promise<'labels' | 'ranges'> {
    const { apiVersion, kind } = entry.forKind;
    const descriptor = await this.host.restMapper.resourceFor(apiVersion, kind);
    if (!descriptor.namespaced)
      throw new Error(
        `sharding ring ${ring} shards by namespace, but ${kind} (${apiVersion}) is cluster-scoped: every object would hash alike; shard it by 'name' instead`,
      );
    const ranges = await serverShardsWatches(
      this.host.transport,
      descriptor,
      this.options.namespace,
      this.host.log,
      { descriptor: leaseDescriptor, namespace: this.options.leaseNamespace() },
    );
    this.host.log.info(
      { ring, mechanism: ranges ? 'server-side shard selectors' : 'shard labels' },
      ranges
        ? 'the API server shards lists and watches: each replica selects its hash ranges there'
        : 'the API server does not shard lists and watches: sharding by labels',
    );
    return ranges ? 'ranges' : 'labels';
  }

  /**
   * The predicates of a watch of the controller of `ring`: for its `for()` kind, an object
   * carrying the drain label passes whatever the watch's own predicates say (the replica must
   * hand it back); otherwise the watch's own.
   */
  static predicates(ring: string | undefined, watch: WatchSpec): Predicate[] {
    if (ring === undefined || watch.source !== 'for') return watch.predicates;
    const drain = drainLabel(ring);
    return [
      (event: ObjectEvent) =>
        drain in (event.object.metadata?.labels ?? {}) ||
        watch.predicates.every((predicate) => predicate(event)),
    ];
  }

  /**
   * Runs every ring's member until `signal` aborts; the first member that fails (its shard
   * Lease lost) is reported to `onFailure`. Resolves once every member has stopped.
   */
  async run(signal: AbortSignal, onFailure: (error: unknown) => void): Promise<void> {
    await Promise.all(
      [...this.members.values()].map((member) => member.run(signal).catch(onFailure)),
    );
  }

  /** This replica's identity in its rings (checked once, made once when not given). */
  private identity(): string {
    if (this.identityValue === undefined) {
      const given = this.options.identity;
      if (given !== undefined) checkShardIdentity(given);
      this.identityValue = given ?? shardIdentityFrom(hostname(), randomBytes(4).toString('hex'));
    }
    return this.identityValue;
  }

  private metrics(): ShardingMetrics {
    this.metricsValue ??= new ShardingMetrics(this.host.metrics);
    return this.metricsValue;
  }
}
