import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import pino, { type Logger } from 'pino';
import type { Informer } from '../cache/informer.js';
import { InformerCache, type InformerDefaults } from '../cache/informer-cache.js';
import { Client } from '../client/client.js';
import { DiscoveryRestMapper } from '../client/discovery-rest-mapper.js';
import { inClusterNamespace } from '../client/in-cluster-namespace.js';
import { loadKubeConfig } from '../client/load-kube-config.js';
import { Controller, type ControllerOptions } from '../controller/controller.js';
import {
  ControllerBuilder,
  type ShardingOptions,
  type WatchSpec,
} from '../controller/controller-builder.js';
import type { ControllerKinds } from '../crd/owner-reference-permissions.js';
import { clientEventSink } from '../events/client-event-sink.js';
import { EventRecorder } from '../events/event-recorder.js';
import type { HealthServer } from '../health/health-server.js';
import { managerHealthServer } from '../health/manager-health-server.js';
import { LeaderElector, leaseTiming } from '../leader-election/leader-election.js';
import {
  type MetricsSecureServing,
  managerMetricsServer,
} from '../metrics/manager-metrics-server.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { MetricsServer } from '../metrics/metrics-server.js';
import { KubeTransport } from '../transport/kube-transport.js';
import type { WebhookServer } from '../webhook/webhook-server.js';
import { ownWriteRouter } from './own-write-router.js';
import { ShardRings } from './shard-rings.js';

/** A bind address: `{ port, host? }`, or false to not serve at all. */
export type BindAddress = { port: number; host?: string } | false;

/** Options of a {@link Manager}. */
export interface ManagerOptions {
  /** The cluster configuration (default: found as kubectl finds it, see `loadKubeConfig`). */
  kubeConfig?: KubeConfig;
  /** Where everything logs (default: pino JSON on stdout at `info`). */
  logger?: Logger;
  /** Prometheus `/metrics` (default `{ port: 8080 }`). */
  metricsBindAddress?: BindAddress;
  /**
   * Serve `/metrics` securely, controller-runtime's `SecureServing` with
   * `filters.WithAuthenticationAndAuthorization`: HTTPS, with the certificate in `certDir`
   * (`tls.crt`/`tls.key` unless named, reloaded when rotated) or, without one, a self-signed
   * certificate made at start; and every scrape authenticated (TokenReview) and authorized
   * (SubjectAccessReview of `get` on the non-resource URL `/metrics`) by the API server as
   * the manager's identity, which therefore needs create on `tokenreviews` and
   * `subjectaccessreviews`. Default `false`: plain HTTP to anyone (controller-runtime's
   * default; `runOperator` turns it on unless `--metrics-secure=false`).
   */
  metricsSecureServing?: MetricsSecureServing;
  /** `/healthz` and `/readyz` (default `{ port: 8081 }`). */
  healthProbeBindAddress?: BindAddress;
  /**
   * The admission webhook server to run with the manager (it is not leader-elected). Its
   * requests are recorded in the manager's {@link Manager.metrics} (controller-runtime's
   * `controller_runtime_webhook_*`), so it cannot also serve another manager.
   */
  webhookServer?: WebhookServer;
  /** Only run controllers while holding a Lease (default false). */
  leaderElection?: boolean;
  /** Name of the Lease (required with leader election). */
  leaderElectionId?: string;
  /** Namespace of the Lease (default: the pod's namespace in-cluster, else `default`). */
  leaderElectionNamespace?: string;
  /**
   * Identity in the Lease (default: host name + random suffix). With sharded controllers it
   * is also this replica's name in their rings (the value of their shard label), so it must
   * be a label value: lower-case letters, digits, '-' and '.', at most 63 characters (the
   * pod name is a good choice; the default is made to fit).
   */
  leaderElectionIdentity?: string;
  /**
   * Warm standby (controller-runtime's `EnableWarmup`), with leader election: default true,
   * a replica that does not lead lists and watches what its controllers need (caches synced,
   * events queued, no reconcile), so a new leader starts reconciling without a cold list.
   * False: a cold standby, which starts its informers only once it leads (less API server
   * load and memory per standby, a slower failover). Without leader election it changes
   * nothing.
   */
  enableWarmup?: boolean;
  /**
   * Lease timing (defaults 15 s / 10 s / 2 s, as controller-runtime), for leader election
   * and for the shard Leases of sharded controllers (see `withOptions({ sharding })`), which
   * live in `leaderElectionNamespace`.
   */
  leaseDurationMs?: number;
  renewDeadlineMs?: number;
  retryPeriodMs?: number;
  /** Restrict every informer to one namespace (default: all namespaces). */
  namespace?: string;
  /** Settings of every informer (transform, page size, silence timeout...). */
  informerDefaults?: InformerDefaults;
  /** How long caches may take to sync before start fails (default 2 min). */
  cacheSyncTimeoutMs?: number;
  /** How long in-flight reconciles get on shutdown before the manager stops anyway (default 30 s). */
  gracefulShutdownTimeoutMs?: number;
  /**
   * Read-your-writes (default true): a read through the manager's client never returns an
   * object older than the manager's own last write of it; see `InformerCache`. False serves
   * reads from the cache as it is.
   */
  readYourWrites?: boolean;
  /**
   * How long a read waits for the cache to show the manager's own write before it reads from
   * the API server (default 5 s).
   */
  readYourWritesTimeoutMs?: number;
  /**
   * Whether an event that only shows a controller's own write (the object at the
   * resourceVersion that controller's reconcile wrote) skips reconciling that controller
   * again (default true, with read-your-writes). False reconciles on every event, as
   * controller-runtime does.
   */
  skipOwnWriteEvents?: boolean;
  /** Counts API requests of the manager's client (benchmarks count writes with it). */
  onRequest?: ConstructorParameters<typeof Client>[0]['onRequest'];
}

/** Something the manager starts and stops with itself. */
export interface Runnable {
  /** Runs until `signal` aborts; resolves when stopped. */
  start(signal: AbortSignal): Promise<void>;
  /** Runs only on the elected leader (default true, like controllers). */
  needLeaderElection?: boolean;
}

interface RegisteredController {
  controller: Controller;
  watches: WatchSpec[];
  kinds: ControllerKinds;
  /** The ring of a sharded controller (it runs under its shard Lease, not leader election). */
  ring?: string;
}

/**
 * Runs controllers and everything around them, as controller-runtime's manager does: one
 * transport, REST mapper, shared informer cache, client (reads from the cache, writes to the
 * API server), metrics registry, event recorders, the metrics (:8080) and health (:8081)
 * servers, an optional webhook server, and optional leader election on a Lease.
 *
 * `start(signal)` starts, in order: metrics and health servers, the webhook server, the
 * caches controllers need (waiting for them to sync), then — once leader, if elected — the
 * controllers and runnables. A replica that does not lead is a warm standby: its caches are
 * synced and its controllers' queues filled, but nothing is reconciled until it leads
 * (`enableWarmup: false` makes it a cold standby, which starts its caches once it leads). It resolves when `signal` aborts and everything has stopped, in
 * reverse order, within the graceful shutdown timeout. `/readyz` is ready once caches have
 * synced (and the webhook server is serving).
 *
 * A sharded controller (`withOptions({ sharding })`, see the README's "Sharding") does not
 * follow leader election: every replica runs it, on its share of the objects, while it holds
 * its own shard Lease; losing that Lease stops everything and `start` rejects, as losing
 * leadership does.
 *
 * No globals: two managers in one process do not share anything.
 */
export class Manager {
  readonly kubeConfig: KubeConfig;
  readonly log: Logger;
  readonly transport: KubeTransport;
  readonly restMapper: DiscoveryRestMapper;
  readonly cache: InformerCache;
  readonly client: Client;
  readonly metrics = new MetricsRegistry();
  readonly health: HealthServer | undefined;
  /** The `/metrics` server, absent with `metricsBindAddress: false`. */
  readonly metricsServer: MetricsServer | undefined;
  private readonly controllers: RegisteredController[] = [];
  /** The rings of sharded controllers. */
  private readonly shardRings: ShardRings;
  private readonly runnables: Runnable[] = [];
  private readonly recorders: EventRecorder[] = [];
  private readonly options: ManagerOptions;
  private cachesSynced = false;
  private started = false;
  private leading = false;

  constructor(options: ManagerOptions = {}) {
    // First: a server another manager records into is refused before anything is opened.
    options.webhookServer?.instrument(this.metrics);
    this.options = options;
    this.kubeConfig = options.kubeConfig ?? loadKubeConfig();
    this.log = options.logger ?? pino({ level: 'info' });
    this.transport = new KubeTransport(this.kubeConfig);
    this.restMapper = new DiscoveryRestMapper(this.transport);
    this.cache = new InformerCache({
      transport: this.transport,
      restMapper: this.restMapper,
      logger: this.log.child({ component: 'cache' }),
      ...(options.informerDefaults ? { informerDefaults: options.informerDefaults } : {}),
      ...(options.readYourWrites === false ? { readYourWrites: false } : {}),
      ...(options.readYourWritesTimeoutMs !== undefined
        ? { readYourWritesTimeoutMs: options.readYourWritesTimeoutMs }
        : {}),
    });
    this.client = new Client({
      transport: this.transport,
      restMapper: this.restMapper,
      cache: this.cache,
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    });
    this.shardRings = new ShardRings(this, {
      namespace: options.namespace,
      leaseNamespace: () => this.leaseNamespace(),
      identity: options.leaderElectionIdentity,
      timing: leaseTiming(options),
      startControllers: (ring) => {
        for (const entry of this.controllers) if (entry.ring === ring) entry.controller.start();
      },
      stopControllers: (ring) =>
        this.stopControllers(this.controllers.filter((entry) => entry.ring === ring)),
    });
    const metricsAddress = options.metricsBindAddress ?? { port: 8080 };
    if (metricsAddress) {
      this.metricsServer = managerMetricsServer({
        address: metricsAddress,
        secure: options.metricsSecureServing ?? false,
        metrics: this.metrics,
        transport: this.transport,
        logger: this.log.child({ component: 'metrics' }),
      });
    }
    const healthAddress = options.healthProbeBindAddress ?? { port: 8081 };
    if (healthAddress) {
      this.health = managerHealthServer({
        address: healthAddress,
        logger: this.log.child({ component: 'health' }),
        // A cold standby syncs nothing until it leads: it is ready to take over meanwhile.
        cachesReady: () => this.cachesSynced || (this.coldStandby() && !this.leading),
        ...(options.webhookServer ? { webhookServer: options.webhookServer } : {}),
      });
    }
    if (options.leaderElection && !options.leaderElectionId) {
      throw new Error(
        'leaderElection needs leaderElectionId: the name of the Lease the candidates share, e.g. "application-operator.lixueduan.com"',
      );
    }
    this.metrics.cacheObjects('all', () =>
      this.cache.objectCounts().reduce((sum, entry) => sum + entry.count, 0),
    );
  }

  /** Starts building a controller (see {@link ControllerBuilder}). */
  controller(name?: string): ControllerBuilder {
    return new ControllerBuilder(
      {
        informerFor: (apiVersion, kind, scope) =>
          this.cache.informerFor(
            apiVersion,
            kind,
            scope?.namespace
              ? scope
              : this.options.namespace
                ? { namespace: this.options.namespace }
                : {},
          ),
        registerController: (options, watches, kinds, sharding) =>
          this.registerController(options, watches, kinds, sharding),
      },
      name,
    );
  }

  private registerController(
    options: Omit<ControllerOptions, 'metrics' | 'workqueueMetrics' | 'logger'>,
    watches: WatchSpec[],
    kinds: ControllerKinds,
    sharding?: ShardingOptions,
  ): Controller {
    if (this.started)
      throw new Error(
        `controller ${options.name} was added after the manager started; add controllers before start()`,
      );
    if (this.controllers.some((entry) => entry.controller.name === options.name)) {
      throw new Error(
        `a controller named ${options.name} already exists; give each controller a unique name with named()`,
      );
    }
    let ring: string | undefined;
    if (sharding !== undefined) {
      ring = sharding.ring ?? options.name;
      const sharded = this.shardRings.shard(
        ring,
        options.name,
        watches,
        kinds,
        options.reconciler,
        this.coldStandby(),
        sharding.by,
      );
      watches = sharded.watches;
      options = { ...options, reconciler: sharded.reconciler };
    }
    const controller = new Controller({
      ...options,
      metrics: this.metrics.controller(options.name, {
        maxConcurrentReconciles: options.maxConcurrentReconciles ?? 1,
      }),
      workqueueMetrics: this.metrics.workqueueMetrics,
      logger: this.log,
    });
    this.controllers.push({ controller, watches, kinds, ...(ring ? { ring } : {}) });
    return controller;
  }

  /** Namespace of the Leases: the option, else the pod's namespace in-cluster, else `default`. */
  private leaseNamespace(): string {
    return this.options.leaderElectionNamespace ?? inClusterNamespace() ?? 'default';
  }

  /**
   * What each registered controller reconciles and owns (its `for()` and `owns()`), in
   * registration order, with the ring of each sharded one (`sharding`); copies, so changing
   * them changes nothing here. The manifests generator derives the RBAC an owner reference
   * needs, and the RBAC of a sharded controller, from it.
   */
  controllerKinds(): ControllerKinds[] {
    return this.controllers.map(({ kinds, ring }) => ({
      name: kinds.name,
      for: { ...kinds.for },
      owns: kinds.owns.map((entry) => ({
        kind: { ...entry.kind },
        onlyController: entry.onlyController,
      })),
      ...(ring !== undefined ? { sharding: { ring } } : {}),
    }));
  }

  /** Adds a runnable started with the controllers (or at once when `needLeaderElection` is false). */
  add(runnable: Runnable): void {
    this.runnables.push(runnable);
  }

  /** An event recorder writing Kubernetes Events as `component` through the manager's client. */
  eventRecorder(component: string): EventRecorder {
    const recorder = new EventRecorder({
      sink: clientEventSink(this.client),
      component,
      logger: this.log.child({ component: 'events' }),
    });
    this.recorders.push(recorder);
    return recorder;
  }

  /** Whether this manager's controllers are running: it leads (or needs no election) and caches synced. */
  isLeader(): boolean {
    return this.leading;
  }

  /**
   * Runs everything until `signal` aborts, then stops it all. Rejects when startup fails
   * (a server cannot bind, caches do not sync in time), after stopping what had started.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.started)
      throw new Error('the manager was already started; create a new Manager to start again');
    this.started = true;
    const stops: Array<() => Promise<void>> = [];
    const stopAll = async () => {
      for (const stop of stops.reverse()) {
        try {
          await stop();
        } catch (error) {
          this.log.error({ err: error }, 'error while stopping');
        }
      }
    };
    try {
      if (this.metricsServer) {
        await this.metricsServer.start();
        stops.push(() => (this.metricsServer as MetricsServer).stop());
      }
      if (this.health) {
        await this.health.start();
        stops.push(() => (this.health as HealthServer).stop());
      }
      const webhook = this.options.webhookServer;
      if (webhook) {
        await webhook.start();
        stops.push(() => webhook.stop());
      }
      stops.push(() => this.cache.stop());
      stops.push(async () => {
        this.transport.close();
      });
      const warm = !this.coldStandby();
      if (warm) await this.syncSources();
      const unelected = this.runnables.filter((runnable) => runnable.needLeaderElection === false);
      stops.push(startUnelected(unelected, signal));
      await this.runWithRings(signal, warm);
    } catch (error) {
      this.log.error({ err: error }, 'manager failed to start');
      await stopAll();
      throw error;
    }
    await stopAll();
    for (const recorder of this.recorders) await recorder.close();
    this.log.info('manager stopped');
  }

  /**
   * Runs the unsharded controllers (elected or not) and, beside them, each ring's member (see
   * {@link ShardRings}), until `signal` aborts. When a ring's shard Lease is lost, or
   * leadership is, everything stops and the loss is thrown.
   */
  private async runWithRings(signal: AbortSignal, warm: boolean): Promise<void> {
    const ringLost = new AbortController();
    const running = AbortSignal.any([signal, ringLost.signal]);
    let ringFailure: unknown;
    const rings = this.shardRings.run(running, (error) => {
      ringFailure ??= error;
      ringLost.abort();
    });
    try {
      if (this.options.leaderElection) await this.runElected(running, warm);
      else await this.runLeader(running);
    } finally {
      ringLost.abort();
      await rings;
    }
    if (ringFailure !== undefined) throw ringFailure;
  }

  /** Whether this manager is a cold standby: elected, with warm-up turned off. */
  private coldStandby(): boolean {
    return this.options.leaderElection === true && this.options.enableWarmup === false;
  }

  /** Starts the informers controllers watch, routes their events, and waits for them to sync. */
  private async syncSources(): Promise<void> {
    const informers = await this.startSources();
    await Promise.all(
      informers.map((informer) => informer.waitForSync(this.options.cacheSyncTimeoutMs ?? 120_000)),
    );
    this.cachesSynced = true;
    this.log.info({ informers: informers.length }, 'caches synced');
  }

  private async startSources(): Promise<Informer[]> {
    const informers: Informer[] = [];
    for (const entry of this.controllers) {
      const { controller, watches } = entry;
      for (const watch of watches) {
        const scope = watch.namespace
          ? { namespace: watch.namespace }
          : this.options.namespace
            ? { namespace: this.options.namespace }
            : {};
        const shardScope =
          entry.ring !== undefined ? await this.shardRings.scopeFor(entry.ring, watch) : {};
        const informer = await this.cache.informerFor(watch.kind.apiVersion, watch.kind.kind, {
          ...scope,
          ...(watch.onlyMetadata ? { metadataOnly: true } : {}),
          ...(watch.labelSelector ? { labelSelector: watch.labelSelector } : {}),
          ...shardScope,
        });
        if (entry.ring !== undefined) this.shardRings.attach(entry.ring, watch, informer);
        // A sharded controller hears of a drain whatever its predicates say.
        const predicates = ShardRings.predicates(entry.ring, watch);
        const route = ownWriteRouter(
          this.cache,
          controller,
          watch,
          predicates,
          this.options.skipOwnWriteEvents !== false,
        );
        informer.addEventHandler({
          onAdd: (object, isInInitialList) => route({ type: 'create', object, isInInitialList }),
          onUpdate: (old, object) => route({ type: 'update', object, old }),
          onDelete: (object) => route({ type: 'delete', object }),
        });
        if (!informers.includes(informer)) informers.push(informer);
      }
    }
    return informers;
  }

  /** Runs the controllers and elected runnables until `signal` aborts, then stops them. */
  private async runLeader(signal: AbortSignal): Promise<void> {
    for (const { controller, ring } of this.controllers) if (ring === undefined) controller.start();
    this.leading = true;
    const runnables = this.runnables
      .filter((runnable) => runnable.needLeaderElection !== false)
      .map((runnable) => runnable.start(signal));
    if (!signal.aborted)
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => resolve(), { once: true }),
      );
    this.leading = false;
    await this.stopControllers(this.controllers.filter((entry) => entry.ring === undefined));
    await Promise.allSettled(runnables);
  }

  private async stopControllers(entries: RegisteredController[]): Promise<void> {
    const timeoutMs = this.options.gracefulShutdownTimeoutMs ?? 30_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    const stopped = Promise.all(entries.map(({ controller }) => controller.stop())).then(
      () => 'stopped' as const,
    );
    const outcome = await Promise.race([stopped, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout')
      this.log.warn(
        { timeoutMs },
        'in-flight reconciles did not finish within the graceful shutdown timeout',
      );
  }

  /** Runs for the lease; `warm`: caches are synced already, else they are synced on winning it. */
  private async runElected(signal: AbortSignal, warm: boolean): Promise<void> {
    const namespace = this.leaseNamespace();
    const identity =
      this.options.leaderElectionIdentity ?? `${hostname()}_${randomBytes(4).toString('hex')}`;
    const elector = new LeaderElector({
      transport: this.transport,
      namespace,
      name: this.options.leaderElectionId as string,
      identity,
      ...leaseTiming(this.options),
      logger: this.log,
    });
    // Aborted with `signal`, or by a cold standby whose caches failed to sync once it led.
    const election = new AbortController();
    const onAbort = () => election.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    let lost = false;
    let syncFailure: unknown;
    await elector.run(election.signal, {
      onStartedLeading: async (leading) => {
        if (!warm) {
          try {
            await this.syncSources();
          } catch (error) {
            syncFailure = error;
            election.abort();
            return;
          }
        }
        await this.runLeader(leading);
      },
      onStoppedLeading: () => {
        lost = !election.signal.aborted;
      },
    });
    signal.removeEventListener('abort', onAbort);
    if (syncFailure !== undefined) throw syncFailure;
    if (lost) {
      // Leadership lost while still running: another replica may be reconciling now, so this
      // one must not continue. The caller decides how to exit (controller-runtime exits).
      throw new Error(
        `leader election lost: the lease ${namespace}/${this.options.leaderElectionId} could not be renewed in time; exiting so another replica leads`,
      );
    }
  }
}

/**
 * Starts the runnables that need no leader election, until `signal` aborts or the returned
 * stop is called, which resolves once they have all returned. The manager calls it when it
 * stops, also on its own (leadership lost): else it would wait for them, never returning,
 * while they run on.
 */
function startUnelected(runnables: Runnable[], signal: AbortSignal): () => Promise<void> {
  const stop = new AbortController();
  const stopped = AbortSignal.any([signal, stop.signal]);
  const running = runnables.map((runnable) => runnable.start(stopped));
  return async () => {
    stop.abort();
    await Promise.allSettled(running);
  };
}

/**
 * An AbortSignal that aborts on SIGTERM or SIGINT, for an operator's main: pass it to
 * `manager.start`. The listeners are removed after the first signal; a second signal gets
 * Node's default behaviour (exit), so a stuck shutdown can still be interrupted.
 */
export function setupSignalHandler(): AbortSignal {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    controller.abort(new Error(`received ${signal}`));
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  return controller.signal;
}
