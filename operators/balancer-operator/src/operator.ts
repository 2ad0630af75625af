import {
  configMaps,
  deployments,
  type Manager,
  type OperatorDefinition,
  services,
} from '@ops/core';
import type { BuilderOptions } from '@ops/core/controller';
import { balancerResource } from './api/v1alpha1/balancer.js';
import { type BalancerReconcilerDeps, balancerReconciler } from './controller/balancer.js';

/**
 * The controller options the balancer-operator adopts: a reconcile mostly waits for the API
 * server (up to six writes, then the status), so four run at a time; and from issue #31,
 * beyond the defaults (the priority queue and read-your-writes it has without asking), a
 * reconcile timeout: each of those calls may hang up to the client's 60 s timeout, so a
 * reconcile still running after 30 s is aborted, counted
 * (`controller_runtime_reconcile_timeouts_total`) and retried with backoff, and its worker
 * moves on. Metadata-only watches are not adopted: the reconciler reads and compares each
 * child (Services, the ConfigMap, the Deployment) whole, so their informers hold them whole.
 */
export const balancerControllerOptions: BuilderOptions = {
  maxConcurrentReconciles: 4,
  reconciliationTimeoutMs: 30_000,
};

/** Settings of the Balancer controller beyond the manager's. */
export interface BalancerControllerOptions
  extends Pick<BalancerReconcilerDeps, 'conflictRecheckMs'> {
  /**
   * Controller options applied over {@link balancerControllerOptions} (the benchmarks turn the
   * operator's adopted features off with them, to measure the runtime without them).
   */
  controller?: BuilderOptions;
}

/**
 * Adds the Balancer controller to a manager: it reconciles every Balancer and watches what it
 * owns (Services, the nginx ConfigMap, the proxy Deployment), so a child changed or deleted
 * behind its back, or a proxy rollout, wakes its Balancer up.
 */
export function addBalancerController(
  manager: Manager,
  options: BalancerControllerOptions = {},
): void {
  const recorder = manager.eventRecorder('balancer-operator');
  manager
    .controller('balancer')
    .for(balancerResource)
    .withOptions({ ...balancerControllerOptions, ...options.controller })
    .owns(services)
    .owns(configMaps)
    .owns(deployments)
    .complete(
      balancerReconciler({
        client: manager.client,
        recorder,
        ...(options.conflictRecheckMs !== undefined
          ? { conflictRecheckMs: options.conflictRecheckMs }
          : {}),
      }),
    );
}

/**
 * The balancer-operator for `runOperator` (src/main.ts): its name (also the kustomize namePrefix
 * of config/default), its Lease and its controller. It has no webhooks: the CRD's schema says
 * everything a Balancer must satisfy.
 */
export const balancerOperator: OperatorDefinition = {
  name: 'balancer-operator',
  leaderElectionId: 'balancer-operator.exposer.hliangzhao.io',
  setup: (manager) => addBalancerController(manager),
};
