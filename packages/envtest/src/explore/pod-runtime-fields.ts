import type { NondeterministicField } from './outcome.js';

/**
 * The fields of a Pod's status that differ from run to run of the same scenario, whatever the
 * operator does: the times the kubelet stamps (second granularity, so one run crosses a second
 * where another does not), the ids it draws for containers, and the addresses (on the cluster
 * plane each Pod gets the next address of its kwok node's range). Every condition and every
 * container status, each container state (running or terminated), is covered.
 *
 * A scenario whose outcome holds Pods spreads these into its `outcome.nondeterministic`, beside
 * its own kinds' fields; the rest of a Pod (spec, labels, owner, phase, readiness, restart
 * counts) is still compared.
 */
export const podRuntimeFields: readonly NondeterministicField[] = [
  { kind: 'Pod', path: 'status.startTime' },
  { kind: 'Pod', path: 'status.podIP' },
  { kind: 'Pod', path: 'status.podIPs' },
  { kind: 'Pod', path: 'status.conditions.lastTransitionTime' },
  { kind: 'Pod', path: 'status.containerStatuses.containerID' },
  { kind: 'Pod', path: 'status.containerStatuses.state.running.startedAt' },
  { kind: 'Pod', path: 'status.containerStatuses.state.terminated.startedAt' },
  { kind: 'Pod', path: 'status.containerStatuses.state.terminated.finishedAt' },
  { kind: 'Pod', path: 'status.containerStatuses.state.terminated.containerID' },
];
