import { defaultPodRunDuration, parsePodRunDuration } from './pod-lifecycle-annotations.js';
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
  /**
   * How long a Pod whose `restartPolicy` is `Never` or `OnFailure` runs once Running when it has
   * no `ops-ts.github.io/run-duration` annotation, in ms (default 1000, `defaultPodRunDuration`).
   */
  podRunDurationMs?: number;
  /**
   * The exit code of such a Pod without an `ops-ts.github.io/exit-code` annotation: 0 (the
   * default) -> Succeeded, 1 to 255 -> Failed.
   */
  podExitCode?: number;
  /** The Job controller (batch/v1). Default true. */
  jobs?: boolean;
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

/**
 * Fills the defaults of {@link ClusterOptions}; `true` or undefined means all defaults.
 *
 * @throws {Error} naming the option when `podRunDurationMs` is not a non-negative number or
 *   `podExitCode` not an integer from 0 to 255.
 */
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
    jobs: on && (given.jobs ?? true),
    podStartDelayMs: Math.max(0, given.podStartDelayMs ?? 20),
    podStopDelayMs: Math.max(0, given.podStopDelayMs ?? 50),
    podRunDurationMs: given.podRunDurationMs ?? parsePodRunDuration(defaultPodRunDuration),
    podExitCode: given.podExitCode ?? 0,
    nodeName: given.nodeName ?? 'local-node',
  };
  if (!Number.isFinite(resolved.podRunDurationMs) || resolved.podRunDurationMs < 0)
    throw new Error(
      `cluster option podRunDurationMs must be a number of milliseconds >= 0, got ${String(given.podRunDurationMs)}`,
    );
  if (
    !Number.isInteger(resolved.podExitCode) ||
    resolved.podExitCode < 0 ||
    resolved.podExitCode > 255
  )
    throw new Error(
      `cluster option podExitCode must be an integer from 0 (Succeeded) to 255, got ${String(given.podExitCode)}`,
    );
  if (given.onError !== undefined) resolved.onError = given.onError;
  return resolved;
}
