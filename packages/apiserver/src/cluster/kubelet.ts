import { createHash, randomUUID } from 'node:crypto';
import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { ResourceType } from '../registry/resource-type.js';
import { timestamp } from '../server/object-metadata.js';
import type { DeleteOptions } from '../server/resource-service.js';
import type { StoreEvent } from '../store/object-store.js';
import { type DesiredCondition, isPodTerminal, setCondition } from './conditions.js';
import type { Controller } from './controller.js';
import { type ControllerClient, isConflict, isNotFound } from './controller-client.js';
import {
  type Json,
  namespacedKey,
  numberOr,
  objectsOf,
  specOf,
  splitKey,
  statusOf,
  stringOr,
} from './json.js';
import type { ReconcileResult } from './reconcile-loop.js';

/** The phases a Pod can be finished with. */
export type FinishedPhase = 'Succeeded' | 'Failed';

/** Options of a {@link Kubelet}. */
export interface KubeletOptions {
  nodeName: string;
  /** Delay between a Pod being bound and its containers running. */
  podStartDelayMs: number;
  /** Cap on the simulated time a gracefully deleted Pod takes to stop. */
  podStopDelayMs: number;
}

/** The address of the simulated node. */
export const nodeAddress = '172.18.0.2';

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
 * - {@link finishPod} ends a Pod's containers with a given phase and exit code. Restarts are
 *   not simulated: a finished Pod stays finished whatever its restartPolicy.
 *
 * Keys are `namespace/name` of Pods, and `node` for the Node.
 */
export class Kubelet implements Controller {
  readonly name = 'kubelet';
  private readonly seen = new Map<string, { uid: string; at: number; stopAt?: number }>();
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
    if (isPodTerminal(pod) || this.isRunning(pod)) return undefined;
    const startAt = seen.at + this.options.podStartDelayMs;
    if (now < startAt) return { requeueAfterMs: startAt - now };
    const running = structuredClone(pod);
    running.status = this.runningStatus(pod, new Date(seen.at), new Date(now));
    await this.client.update('', 'pods', running, 'status');
    return undefined;
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
    const at = timestamp(now);
    const ip = this.podIP(pod);
    let conditions = objectsOf(old.conditions);
    const wanted: DesiredCondition[] = [
      'PodReadyToStartContainers',
      'Initialized',
      'Ready',
      'ContainersReady',
      'PodScheduled',
    ].map((type) => ({
      type,
      status: 'True',
    }));
    for (const condition of wanted) conditions = setCondition(conditions, condition, at);
    const spec = specOf(pod);
    const status: Json = {
      ...old,
      phase: 'Running',
      conditions,
      hostIP: nodeAddress,
      hostIPs: [{ ip: nodeAddress }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: stringOr(old.startTime, timestamp(startedAt)),
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
    const at = timestamp(now);
    let conditions = objectsOf(old.conditions);
    for (const type of ['PodReadyToStartContainers', 'Ready', 'ContainersReady']) {
      const desired: DesiredCondition =
        type === 'PodReadyToStartContainers'
          ? { type, status: 'False' }
          : { type, status: 'False', reason: 'PodCompleted' };
      conditions = setCondition(conditions, desired, at);
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
    const at = timestamp(new Date());
    const condition = (type: string, status: string, reason: string, message: string) => ({
      type,
      status,
      lastHeartbeatTime: at,
      lastTransitionTime: at,
      reason,
      message,
    });
    const resources = {
      cpu: '8',
      memory: '16384Mi',
      pods: '110',
      'ephemeral-storage': '100Gi',
      'hugepages-2Mi': '0',
    };
    const node: KubernetesObject = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/os': 'linux',
          'beta.kubernetes.io/arch': 'amd64',
        },
        annotations: {
          'node.alpha.kubernetes.io/ttl': '0',
          'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        },
      },
      spec: {
        podCIDR: '10.244.0.0/16',
        podCIDRs: ['10.244.0.0/16'],
        providerID: `local://${name}`,
      },
      status: {
        capacity: resources,
        allocatable: resources,
        conditions: [
          condition(
            'MemoryPressure',
            'False',
            'KubeletHasSufficientMemory',
            'kubelet has sufficient memory available',
          ),
          condition(
            'DiskPressure',
            'False',
            'KubeletHasNoDiskPressure',
            'kubelet has no disk pressure',
          ),
          condition(
            'PIDPressure',
            'False',
            'KubeletHasSufficientPID',
            'kubelet has sufficient PID available',
          ),
          condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
        ],
        addresses: [
          { type: 'InternalIP', address: nodeAddress },
          { type: 'Hostname', address: name },
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: sha256(`machine/${name}`).slice(0, 32),
          systemUUID: randomUUID(),
          bootID: this.bootID,
          kernelVersion: '6.8.0',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          containerRuntimeVersion: 'containerd://2.1.1',
          kubeletVersion: 'v1.33.0',
          kubeProxyVersion: 'v1.33.0',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
      },
    };
    try {
      await this.client.create('', 'nodes', '', node);
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
}
