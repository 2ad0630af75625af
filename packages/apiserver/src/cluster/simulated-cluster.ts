import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { StoreEvent } from '../store/object-store.js';
import { ClusterIndex } from './cluster-index.js';
import {
  type ClusterOptions,
  type ResolvedClusterOptions,
  resolveClusterOptions,
} from './cluster-options.js';
import type { Controller } from './controller.js';
import { type ClusterHost, ControllerClient, clusterUsers } from './controller-client.js';
import { DeploymentController } from './deployment-controller.js';
import { EndpointsController } from './endpoints-controller.js';
import { GarbageCollector } from './garbage-collector.js';
import { JobController } from './job-controller.js';
import { type FinishedPhase, Kubelet } from './kubelet.js';
import { NamespaceController } from './namespace-controller.js';
import { type ClusterErrorRecord, ReconcileLoop } from './reconcile-loop.js';
import { ReplicaSetController } from './replica-set-controller.js';
import { Scheduler } from './scheduler.js';

const keptErrors = 100;

/**
 * The cluster around the local API server: what kube-controller-manager (garbage collector,
 * namespace, Deployment, ReplicaSet, Job, endpoints and EndpointSlice controllers), kube-scheduler
 * and one kubelet would do, each switchable with {@link ClusterOptions}.
 *
 * Controllers follow every store write (`ObjectStore.subscribeAll`), queue the keys it
 * concerns and reconcile them asynchronously, level-based (they read the current state, never
 * the event), so a write never waits for them and never fails because of them. Their
 * namespaced reads go through one {@link ClusterIndex} kept from the same events (by
 * namespace, label pair, controller uid and Service selector), so a lookup costs what it
 * finds rather than the size of the namespace. Every write they make goes through
 * `ResourceService` as a system user (`system:kube-controller-manager`,
 * `system:kube-scheduler`, `system:node:<node>`, all in `system:masters`), so admission
 * webhooks and validation apply to them as in a real cluster. Conflicts are retried with
 * fresh state; other failures are reported (`errors`, `onError`) and retried with backoff.
 * Controllers write only when something changes: a settled cluster makes no writes.
 */
export class SimulatedCluster {
  readonly options: ResolvedClusterOptions;
  /** The last 100 failed reconciles (webhook denials, invalid objects...), oldest first. */
  readonly errors: ClusterErrorRecord[] = [];
  private readonly loops: Array<{ controller: Controller; loop: ReconcileLoop }> = [];
  private readonly kubelet: Kubelet | undefined;
  /** What the controllers' namespaced reads go through; kept while running. */
  private readonly index: ClusterIndex;
  private unsubscribe: (() => void) | undefined;
  private previousDeleteHook: ClusterHost['resources']['hooks']['deleteGracefully'];
  private state: 'new' | 'running' | 'stopped' = 'new';

  constructor(
    private readonly host: ClusterHost,
    options?: boolean | ClusterOptions,
  ) {
    this.options = resolveClusterOptions(options);
    const controllers: Controller[] = [];
    this.index = new ClusterIndex(host.store);
    const manager = new ControllerClient(host, clusterUsers.controllerManager, this.index);
    if (this.options.garbageCollector) controllers.push(new GarbageCollector(host, manager));
    if (this.options.namespaces) controllers.push(new NamespaceController(host, manager));
    if (this.options.workloads)
      controllers.push(new DeploymentController(manager), new ReplicaSetController(manager));
    if (this.options.endpoints) controllers.push(new EndpointsController(manager));
    if (this.options.jobs) controllers.push(new JobController(manager));
    if (this.options.kubelet) {
      const nodeName = this.options.nodeName;
      this.kubelet = new Kubelet(
        new ControllerClient(host, clusterUsers.kubelet(nodeName), this.index),
        {
          nodeName,
          podStartDelayMs: this.options.podStartDelayMs,
          podStopDelayMs: this.options.podStopDelayMs,
          podRunDurationMs: this.options.podRunDurationMs,
          podExitCode: this.options.podExitCode,
        },
      );
      controllers.push(
        new Scheduler(new ControllerClient(host, clusterUsers.scheduler, this.index), nodeName),
        this.kubelet,
      );
    }
    for (const controller of controllers) {
      const loop = new ReconcileLoop({
        name: controller.name,
        reconcile: (key) => controller.reconcile(key),
        onError: (record) => this.report(record),
      });
      this.loops.push({ controller, loop });
    }
  }

  /** The names of the controllers that run, e.g. `['garbagecollector', 'namespace', ...]`. */
  get controllers(): string[] {
    return this.loops.map(({ controller }) => controller.name);
  }

  /** The Node's name, or undefined when the kubelet is switched off. */
  get nodeName(): string | undefined {
    return this.kubelet === undefined ? undefined : this.options.nodeName;
  }

  /**
   * Starts the controllers: subscribes to the store, queues every existing object they
   * manage, takes over graceful Pod deletion (when the kubelet runs) and resolves once the
   * Node is registered. Starting twice, or after `stop()`, throws.
   */
  async start(): Promise<void> {
    if (this.state !== 'new')
      throw new Error(`the simulated cluster cannot start: it is ${this.state}`);
    this.state = 'running';
    if (this.loops.length === 0) return;
    this.unsubscribe = this.host.store.subscribeAll((resource, event) =>
      this.dispatch(resource, event),
    );
    this.index.follow();
    for (const { controller, loop } of this.loops) {
      try {
        for (const key of controller.initialKeys()) loop.add(key);
      } catch (error) {
        this.report({ controller: controller.name, key: '', error, at: new Date() });
      }
    }
    const kubelet = this.kubelet;
    if (kubelet !== undefined) {
      const hooks = this.host.resources.hooks;
      const previous = hooks.deleteGracefully;
      this.previousDeleteHook = previous;
      hooks.deleteGracefully = (type, object, options) =>
        type.group === '' && type.plural === 'pods'
          ? kubelet.gracePeriodFor(type, object, options)
          : previous?.(type, object, options);
      await kubelet.reconcile('node');
    }
  }

  /** Stops every controller, waiting for running reconciles; restores the delete hook. */
  async stop(): Promise<void> {
    if (this.state !== 'running') {
      this.state = 'stopped';
      return;
    }
    this.state = 'stopped';
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.index.unfollow();
    if (this.kubelet !== undefined)
      this.host.resources.hooks.deleteGracefully = this.previousDeleteHook;
    await Promise.all(this.loops.map(({ loop }) => loop.stop()));
  }

  /**
   * Resolves once no controller has work queued, running or scheduled (a Pod waiting to
   * start or stop, a retry after a failure counts as scheduled). With a webhook that keeps
   * denying, it resolves only once the denial stops.
   */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.all(this.loops.map(({ loop }) => loop.whenIdle()));
      await new Promise((resolve) => setImmediate(resolve));
      if (this.state !== 'running' || this.loops.every(({ loop }) => loop.isIdle())) return;
    }
  }

  /**
   * Ends a Pod as its containers exiting would: phase `Succeeded` or `Failed`, containers
   * terminated with `exitCode` (default 0 for Succeeded, 1 for Failed), not ready. Its
   * ReplicaSet then replaces it; Services drop it. Restarts are not simulated.
   *
   * @throws {StatusError} 404 when the Pod does not exist, 400 for another phase or when the
   * kubelet is switched off.
   */
  async finishPod(
    namespace: string,
    name: string,
    phase: FinishedPhase,
    exitCode?: number,
  ): Promise<KubernetesObject> {
    if (this.kubelet === undefined)
      throw StatusError.badRequest(
        'the simulated kubelet is switched off (cluster option kubelet: false)',
      );
    return this.kubelet.finishPod(namespace, name, phase, exitCode);
  }

  /** {@link finishPod} with phase Failed (exit code 1 unless given). */
  failPod(namespace: string, name: string, exitCode = 1): Promise<KubernetesObject> {
    return this.finishPod(namespace, name, 'Failed', exitCode);
  }

  private dispatch(resource: string, event: StoreEvent): void {
    // First, so that every controller's keysFor and reconcile read the state after the event.
    this.index.apply(resource, event);
    for (const { controller, loop } of this.loops) {
      try {
        for (const key of controller.keysToCancel?.(resource, event) ?? []) loop.cancel(key);
        for (const key of controller.keysFor(resource, event)) loop.add(key);
      } catch (error) {
        this.report({ controller: controller.name, key: event.current.key, error, at: new Date() });
      }
    }
  }

  private report(record: ClusterErrorRecord): void {
    this.errors.push(record);
    if (this.errors.length > keptErrors) this.errors.splice(0, this.errors.length - keptErrors);
    try {
      this.options.onError?.(record);
    } catch {
      // A throwing error callback must not break the store listener that reported.
    }
  }
}
