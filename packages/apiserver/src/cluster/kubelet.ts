import { createHash, randomUUID } from 'node:crypto';
import type { DeleteOptions, KubernetesObject } from '@ops/api';
import { type BuiltInConditionInput, formatRfc3339Seconds, setBuiltInCondition } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import { type Json, numberOr, objectOr, objectsOf, stringOr } from '../json/json.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { StoreEvent } from '../store/object-store.js';
import { isPodTerminal } from './conditions.js';
import type { Controller } from './controller.js';
import { type ControllerClient, isConflict, isNotFound } from './controller-client.js';
import { namespacedKey, specOf, splitKey, statusOf } from './object-fields.js';
import { type PodOutcome, podOutcome } from './pod-outcome.js';
import type { ReconcileResult } from './reconcile-loop.js';
import { nodeAddress, simulatedNode } from './simulated-node.js';

/** The phases a Pod can be finished with. */
export type FinishedPhase = 'Succeeded' | 'Failed';

/** Options of a {@link Kubelet}. */
export interface KubeletOptions {
  nodeName: string;
  /** Delay between a Pod being bound and its containers running. */
  podStartDelayMs: number;
  /** Cap on the simulated time a gracefully deleted Pod takes to stop. */
  podStopDelayMs: number;
  /** How long a finishing Pod runs without the run-duration annotation, in ms. */
  podRunDurationMs: number;
  /** The exit code of a finishing Pod without the exit-code annotation (0 to 255). */
  podExitCode: number;
}

/** What the kubelet remembers of a Pod while it lives. */
interface Seen {
  uid: string;
  /** When the kubelet first saw it. */
  at: number;
  /** When it wrote it Running (ms precision; the Pod's `startedAt` has seconds only). */
  runningAt?: number;
  /** When a Pod being deleted is to stop. */
  stopAt?: number;
}

export { nodeAddress };

const nodeKey = 'node';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The kubelet of the one simulated node, and the node itself.
 *
 * - Registers the Node (`nodeName`, Ready, with addresses, capacity/allocatable and
 *   nodeInfo `kubeletVersion: v1.33.0`) at start, and again if it is deleted; it never
 *   heartbeats, so a settled cluster makes no writes.
 * - Starts Pods bound to the node `podStartDelayMs` after first seeing them: phase Running,
 *   a unique podIP from 10.244.0.0/16 (the node's address for hostNetwork Pods), hostIP,
 *   startTime, conditions PodReadyToStartContainers/Initialized/ContainersReady/Ready/
 *   PodScheduled True, and running, ready, started containerStatuses (init containers
 *   terminated with exit code 0). Probes are not run: containers are ready once started.
 * - Stops a Pod being deleted after `min(podStopDelayMs, deletionGracePeriodSeconds)`: its
 *   containers end with exit code 0 (phase Succeeded unless it had ended already), then it
 *   is deleted with grace period 0.
 * - Finishes Pods whose `restartPolicy` is `Never` or `OnFailure` once they have run for their
 *   run duration (see {@link podOutcome}: annotations, else `podRunDurationMs` and
 *   `podExitCode`), counted from their containers' `startedAt`, so a restarted kubelet keeps
 *   the schedule: exit code 0 -> Succeeded / Completed, else Failed / Error. A bad annotation
 *   value is reported once, as a Warning event on the Pod when it starts running, and the
 *   fallback is used. Pods with `restartPolicy: Always` run until deleted.
 * - {@link finishPod} ends a Pod's containers with a given phase and exit code. Restarts are
 *   not simulated: a finished Pod stays finished whatever its restartPolicy, and a terminal
 *   Pod is never written again.
 *
 * Keys are `namespace/name` of Pods, and `node` for the Node.
 */
export class Kubelet implements Controller {
  readonly name = 'kubelet';
  private readonly seen = new Map<string, Seen>();
  private readonly podIPs = new Map<string, string>();
  private nextIP = 0;
  private readonly bootID = randomUUID();

  constructor(
    private readonly client: ControllerClient,
    private readonly options: KubeletOptions,
  ) {}

  initialKeys(): string[] {
    const pods = this.client
      .list('', 'pods')
      .filter((pod) => specOf(pod).nodeName === this.options.nodeName)
      .flatMap((pod) => namespacedKey(pod) ?? []);
    return [nodeKey, ...pods];
  }

  keysToCancel(resource: string, event: StoreEvent): string[] {
    return resource === '/pods' && event.type === 'DELETED' ? [event.current.key] : [];
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    if (resource === '/nodes')
      return event.type === 'DELETED' && event.current.key === this.options.nodeName
        ? [nodeKey]
        : [];
    if (resource !== '/pods') return [];
    const pod = event.current.object;
    if (event.type === 'DELETED') {
      this.forget(event.current.key, pod.metadata?.uid);
      return [];
    }
    return specOf(pod).nodeName === this.options.nodeName ? [event.current.key] : [];
  }

  async reconcile(key: string): Promise<ReconcileResult | undefined> {
    if (key === nodeKey) {
      await this.registerNode();
      return undefined;
    }
    const { namespace, name } = splitKey(key);
    const pod = this.client.get('', 'pods', namespace, name);
    if (pod === undefined) {
      this.forget(key, undefined);
      return undefined;
    }
    if (specOf(pod).nodeName !== this.options.nodeName) return undefined;
    const uid = pod.metadata?.uid ?? '';
    const now = Date.now();
    let seen = this.seen.get(key);
    if (seen === undefined || seen.uid !== uid) {
      seen = { uid, at: now };
      this.seen.set(key, seen);
    }
    if (pod.metadata?.deletionTimestamp !== undefined) return this.stop(pod, seen, now);
    if (isPodTerminal(pod)) return undefined;
    if (this.isRunning(pod)) return this.finishWhenDue(pod, seen, now);
    const startAt = seen.at + this.options.podStartDelayMs;
    if (now < startAt) return { requeueAfterMs: startAt - now };
    const running = structuredClone(pod);
    running.status = this.runningStatus(pod, new Date(seen.at), new Date(now));
    const written = await this.client.update('', 'pods', running, 'status');
    seen.runningAt = now;
    const outcome = this.outcomeOf(written);
    if (outcome === undefined) return undefined;
    for (const problem of outcome.problems) await this.warn(written, problem);
    return { requeueAfterMs: outcome.runDurationMs };
  }

  /** The outcome of a Pod that runs to completion, undefined for `restartPolicy: Always`. */
  private outcomeOf(pod: KubernetesObject): PodOutcome | undefined {
    const policy = stringOr(specOf(pod).restartPolicy, 'Always');
    if (policy !== 'Never' && policy !== 'OnFailure') return undefined;
    return podOutcome(pod.metadata?.annotations ?? {}, {
      runDurationMs: this.options.podRunDurationMs,
      exitCode: this.options.podExitCode,
    });
  }

  /** Finishes a running Pod whose run duration has passed; else says when to look again. */
  private async finishWhenDue(
    pod: KubernetesObject,
    seen: Seen,
    now: number,
  ): Promise<ReconcileResult | undefined> {
    const outcome = this.outcomeOf(pod);
    if (outcome === undefined) return undefined;
    // A restarted kubelet knows the start from the Pod only, to the second.
    const started = objectsOf(statusOf(pod).containerStatuses)
      .map((s) => Date.parse(stringOr(objectOr(objectOr(s.state).running).startedAt)))
      .filter((at) => !Number.isNaN(at));
    const since = seen.runningAt ?? (started.length > 0 ? Math.max(...started) : now);
    const due = since + outcome.runDurationMs;
    if (now < due) return { requeueAfterMs: due - now };
    const finished = structuredClone(pod);
    const phase: FinishedPhase = outcome.exitCode === 0 ? 'Succeeded' : 'Failed';
    finished.status = this.finishedStatus(pod, phase, outcome.exitCode, new Date(now));
    await this.client.update('', 'pods', finished, 'status');
    return undefined;
  }

  /** Records a Warning event on a Pod (reason `InvalidAnnotation`). */
  private async warn(pod: KubernetesObject, message: string): Promise<void> {
    const meta = pod.metadata ?? {};
    const at = formatRfc3339Seconds(new Date());
    await this.client.create('', 'events', meta.namespace ?? '', {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${meta.name ?? ''}.${randomUUID().replaceAll('-', '').slice(0, 16)}` },
      involvedObject: {
        apiVersion: 'v1',
        kind: 'Pod',
        namespace: meta.namespace,
        name: meta.name,
        uid: meta.uid,
        resourceVersion: meta.resourceVersion,
      },
      reason: 'InvalidAnnotation',
      message,
      type: 'Warning',
      source: { component: 'kubelet', host: this.options.nodeName },
      reportingComponent: 'kubelet',
      reportingInstance: this.options.nodeName,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    } as KubernetesObject);
  }

  /**
   * The grace period of a Pod delete, for `ResourceService.hooks.deleteGracefully`: Pods on
   * this node that have not ended are deleted gracefully (`gracePeriodSeconds` of the
   * request, else the Pod's `terminationGracePeriodSeconds`, else 30); others at once
   * (undefined). A grace period of 0 always deletes at once.
   */
  gracePeriodFor(
    type: ResourceType,
    object: KubernetesObject,
    options: DeleteOptions,
  ): number | undefined {
    if (type.group !== '' || type.plural !== 'pods') return undefined;
    if (specOf(object).nodeName !== this.options.nodeName || isPodTerminal(object))
      return undefined;
    const grace =
      options.gracePeriodSeconds ?? numberOr(specOf(object).terminationGracePeriodSeconds, 30);
    return grace > 0 ? grace : undefined;
  }

  /**
   * Ends a Pod's containers: each terminated with `exitCode` (default 0 for Succeeded, 1 for
   * Failed; reason Completed for 0, Error otherwise), phase `phase`, Ready and
   * ContainersReady False (reason PodCompleted). Retries conflicts; returns the Pod.
   *
   * @throws {StatusError} 404 when the Pod does not exist, 400 for another phase.
   */
  async finishPod(
    namespace: string,
    name: string,
    phase: FinishedPhase,
    exitCode?: number,
  ): Promise<KubernetesObject> {
    if (phase !== 'Succeeded' && phase !== 'Failed') {
      throw StatusError.badRequest(
        `phase must be "Succeeded" or "Failed", not ${JSON.stringify(phase)}`,
      );
    }
    const code = exitCode ?? (phase === 'Succeeded' ? 0 : 1);
    for (let attempt = 0; ; attempt++) {
      const pod = this.client.get('', 'pods', namespace, name);
      if (pod === undefined)
        throw StatusError.notFound({ group: '', resource: 'pods', kind: 'Pod' }, name);
      const finished = structuredClone(pod);
      finished.status = this.finishedStatus(pod, phase, code, new Date());
      try {
        return await this.client.update('', 'pods', finished, 'status');
      } catch (error) {
        if (!isConflict(error) || attempt >= 10) throw error;
      }
    }
  }

  private forget(key: string, uid: string | undefined): void {
    const seen = this.seen.get(key);
    if (seen !== undefined && (uid === undefined || seen.uid === uid)) this.seen.delete(key);
    if (uid !== undefined) this.podIPs.delete(uid);
    else if (seen !== undefined) this.podIPs.delete(seen.uid);
  }

  private isRunning(pod: KubernetesObject): boolean {
    return (
      statusOf(pod).phase === 'Running' && objectsOf(statusOf(pod).containerStatuses).length > 0
    );
  }

  private async stop(
    pod: KubernetesObject,
    seen: { stopAt?: number },
    now: number,
  ): Promise<ReconcileResult | undefined> {
    const grace = numberOr(pod.metadata?.deletionGracePeriodSeconds, 0);
    seen.stopAt ??= now + Math.min(this.options.podStopDelayMs, grace * 1000);
    if (now < seen.stopAt) return { requeueAfterMs: seen.stopAt - now };
    const meta = pod.metadata ?? {};
    if (!isPodTerminal(pod)) {
      const stopped = structuredClone(pod);
      stopped.status = this.finishedStatus(pod, 'Succeeded', 0, new Date(now));
      try {
        await this.client.update('', 'pods', stopped, 'status');
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    }
    // The server may already have removed a finalizer-free Pod on the status write.
    if (
      this.client.get('', 'pods', meta.namespace ?? '', meta.name ?? '')?.metadata?.uid !== meta.uid
    )
      return undefined;
    await this.client.delete('', 'pods', meta.namespace ?? '', meta.name ?? '', {
      gracePeriodSeconds: 0,
      preconditions: { uid: meta.uid ?? '' },
    });
    return undefined;
  }

  private podIP(pod: KubernetesObject): string {
    if (specOf(pod).hostNetwork === true) return nodeAddress;
    const uid = pod.metadata?.uid ?? '';
    let ip = this.podIPs.get(uid);
    if (ip === undefined) {
      const n = this.nextIP++;
      ip = `10.244.${Math.floor(n / 253) % 256}.${(n % 253) + 2}`;
      this.podIPs.set(uid, ip);
    }
    return ip;
  }

  private containerIds(
    pod: KubernetesObject,
    container: Json,
  ): { containerID: string; image: string; imageID: string } {
    const image = stringOr(container.image);
    const repository = image.split('@')[0]?.replace(/:[^/:]+$/, '') ?? image;
    return {
      containerID: `containerd://${sha256(`${pod.metadata?.uid ?? ''}/${stringOr(container.name)}`)}`,
      image,
      imageID: `${repository}@sha256:${sha256(image)}`,
    };
  }

  private runningStatus(pod: KubernetesObject, startedAt: Date, now: Date): Json {
    const old = statusOf(pod);
    const at = formatRfc3339Seconds(now);
    const ip = this.podIP(pod);
    let conditions = objectsOf(old.conditions);
    const wanted: BuiltInConditionInput[] = [
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ].map((type) => ({
      type,
      status: 'True',
    }));
    for (const condition of wanted)
      conditions = setBuiltInCondition(conditions, condition, { now: at });
    const spec = specOf(pod);
    const status: Json = {
      ...old,
      phase: 'Running',
      conditions,
      hostIP: nodeAddress,
      hostIPs: [{ ip: nodeAddress }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: stringOr(old.startTime, formatRfc3339Seconds(startedAt)),
      containerStatuses: objectsOf(spec.containers).map((container) => ({
        name: stringOr(container.name),
        state: { running: { startedAt: at } },
        lastState: {},
        ready: true,
        restartCount: 0,
        ...this.containerIds(pod, container),
        started: true,
      })),
    };
    const init = objectsOf(spec.initContainers);
    if (init.length > 0) {
      status.initContainerStatuses = init.map((container) => {
        const ids = this.containerIds(pod, container);
        return {
          name: stringOr(container.name),
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: at,
              finishedAt: at,
              containerID: ids.containerID,
            },
          },
          lastState: {},
          ready: true,
          restartCount: 0,
          ...ids,
          started: false,
        };
      });
    }
    return status;
  }

  private finishedStatus(
    pod: KubernetesObject,
    phase: FinishedPhase,
    exitCode: number,
    now: Date,
  ): Json {
    const old = statusOf(pod);
    const at = formatRfc3339Seconds(now);
    let conditions = objectsOf(old.conditions);
    for (const type of ['PodReadyToStartContainers', 'Ready', 'ContainersReady']) {
      const desired: BuiltInConditionInput =
        type === 'PodReadyToStartContainers'
          ? { type, status: 'False' }
          : { type, status: 'False', reason: 'PodCompleted' };
      conditions = setBuiltInCondition(conditions, desired, { now: at });
    }
    const previous = new Map(objectsOf(old.containerStatuses).map((s) => [stringOr(s.name), s]));
    const containerStatuses = objectsOf(specOf(pod).containers).map((container) => {
      const ids = this.containerIds(pod, container);
      const before = previous.get(stringOr(container.name));
      const running =
        before === undefined ? undefined : (before.state as Json | undefined)?.running;
      const startedAt = stringOr((running as Json | undefined)?.startedAt, at);
      return {
        name: stringOr(container.name),
        state: {
          terminated: {
            exitCode,
            reason: exitCode === 0 ? 'Completed' : 'Error',
            startedAt,
            finishedAt: at,
            containerID: ids.containerID,
          },
        },
        lastState: {},
        ready: false,
        restartCount: numberOr(before?.restartCount, 0),
        ...ids,
        started: false,
      };
    });
    const status: Json = { ...old, phase, conditions, containerStatuses };
    status.startTime = stringOr(old.startTime, at);
    return status;
  }

  private async registerNode(): Promise<void> {
    const name = this.options.nodeName;
    if (this.client.get('', 'nodes', '', name) !== undefined) return;
    const node = simulatedNode(name, this.bootID, new Date());
    try {
      await this.client.create('', 'nodes', '', node);
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
}
