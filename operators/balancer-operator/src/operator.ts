import {
  configMaps,
  deployments,
  type Manager,
  type OperatorDefinition,
  services,
} from '@ops/core';
import { balancerResource } from './api/v1alpha1/balancer.js';
import { type BalancerReconcilerDeps, balancerReconciler } from './controller/balancer.js';

/** Settings of the Balancer controller beyond the manager's. */
export type BalancerControllerOptions = Pick<BalancerReconcilerDeps, 'conflictRecheckMs'>;

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
    // A reconcile mostly waits for the API server (up to six writes): four at a time.
    .withOptions({ maxConcurrentReconciles: 4 })
    .owns(services)
    .owns(configMaps)
    .owns(deployments)
    .complete(balancerReconciler({ client: manager.client, recorder, ...options }));
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
