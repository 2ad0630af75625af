import type { ClusterErrorRecord } from './reconcile-loop.js';

/**
 * Which parts of the simulated cluster run, and how fast. Every part is on unless switched
 * off; `true` for the whole option means all defaults, `false` means no simulated cluster.
 */
export interface ClusterOptions {
  /** The garbage collector (ownerReferences, foreground/orphan finalizers). Default true. */
  garbageCollector?: boolean;
  /** The namespace controller (empties and finalizes Terminating namespaces). Default true. */
  namespaces?: boolean;
  /** The Deployment and ReplicaSet controllers. Default true. */
  workloads?: boolean;
  /**
   * The scheduler, the kubelet and its Node: Pods get a node, start, get an IP and become
   * Ready; scheduled Pods are deleted gracefully. Default true.
   */
  kubelet?: boolean;
  /** The Endpoints and EndpointSlice controllers for Services with a selector. Default true. */
  endpoints?: boolean;
  /** How long the kubelet takes to start a scheduled Pod's containers (default 20 ms). */
  podStartDelayMs?: number;
  /**
   * The longest a gracefully deleted Pod takes to stop (default 50 ms): the kubelet removes it
   * after `min(podStopDelayMs, gracePeriodSeconds * 1000)`, never after the real grace period.
   */
  podStopDelayMs?: number;
  /** The name of the one Node (default `local-node`). */
  nodeName?: string;
  /**
   * Told about every failed reconcile (a webhook denying a Pod, an invalid object...); the
   * failed key is retried with backoff either way. The last 100 are also kept in
   * `SimulatedCluster.errors`.
   */
  onError?: (record: ClusterErrorRecord) => void;
}

/** {@link ClusterOptions} with every default filled in. */
export type ResolvedClusterOptions = Required<Omit<ClusterOptions, 'onError'>> &
  Pick<ClusterOptions, 'onError'>;

/** Fills the defaults of {@link ClusterOptions}; `true` or undefined means all defaults. */
export function resolveClusterOptions(
  options: boolean | ClusterOptions | undefined,
): ResolvedClusterOptions {
  const given: ClusterOptions = typeof options === 'object' ? options : {};
  const on = options !== false;
  const resolved: ResolvedClusterOptions = {
    garbageCollector: on && (given.garbageCollector ?? true),
    namespaces: on && (given.namespaces ?? true),
    workloads: on && (given.workloads ?? true),
    kubelet: on && (given.kubelet ?? true),
    endpoints: on && (given.endpoints ?? true),
    podStartDelayMs: Math.max(0, given.podStartDelayMs ?? 20),
    podStopDelayMs: Math.max(0, given.podStopDelayMs ?? 50),
    nodeName: given.nodeName ?? 'local-node',
  };
  if (given.onError !== undefined) resolved.onError = given.onError;
  return resolved;
}
