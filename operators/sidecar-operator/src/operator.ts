import type { Manager, OperatorDefinition } from '@ops/core';
import { sidecarSetResource } from './api/v1alpha1/sidecar-set.js';
import { sidecarSetReconciler } from './controller/sidecar-set.js';

/** Adds the SidecarSet controller to a manager: it reconciles every SidecarSet. */
export function addSidecarSetController(manager: Manager): void {
  manager
    .controller('sidecar-set')
    .for(sidecarSetResource)
    .complete(sidecarSetReconciler({ client: manager.client }));
}

/**
 * The sidecar-operator for `runOperator` (src/main.ts): its name (also the kustomize namePrefix of
 * config/default), its Lease and its controller. Add webhooks made with `defineWebhook` to
 * `webhooks` (and config/webhook, see the root README) when it needs them.
 */
export const sidecarOperator: OperatorDefinition = {
  name: 'sidecar-operator',
  leaderElectionId: 'sidecar-operator.apps.chinalhr.github.io',
  setup: addSidecarSetController,
};
