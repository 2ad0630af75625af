import { deployments, type Manager, type OperatorDefinition } from '@ops/core';
import type { WebhookServer } from '@ops/core/webhook';
import { applicationResource } from './api/v1/application.js';
import { applicationReconciler } from './controller/application.js';
import { applicationDefaulter, applicationValidator } from './webhook/application.js';

/**
 * Adds the Application controller to a manager: it reconciles Applications, owns their
 * Deployments, and watches Deployments named `app-<name>` that it does not own (to report
 * and then clear a name conflict).
 */
export function addApplicationController(manager: Manager): void {
  const recorder = manager.eventRecorder('application-operator');
  manager
    .controller('application')
    .for(applicationResource)
    .owns(deployments)
    .watches(deployments, (deployment) => {
      const name = deployment.metadata.name ?? '';
      const owned = (deployment.metadata.ownerReferences ?? []).some(
        (ref) => ref.controller && ref.kind === applicationResource.kind,
      );
      return !owned && name.startsWith('app-')
        ? [{ namespace: deployment.metadata.namespace ?? '', name: name.slice(4) }]
        : [];
    })
    .complete(applicationReconciler({ client: manager.client, recorder }));
}

/** The Application webhooks (defaulting and validating): served by main, rendered by manifests. */
export const applicationWebhooks = [applicationDefaulter, applicationValidator];

/** Registers the Application webhooks on a webhook server (as `runOperator` does). */
export function registerApplicationWebhooks(server: WebhookServer): void {
  for (const webhook of applicationWebhooks) server.register(webhook);
}

/**
 * The application-operator for `runOperator` (src/main.ts): its name (which is also the
 * kustomize namePrefix its self-managed certificate mode expects), its Lease, its webhooks
 * and its controller. src/manifests.ts renders the webhook configurations and the
 * self-managed certificate RBAC from the same object.
 */
export const applicationOperator: OperatorDefinition = {
  name: 'application-operator',
  leaderElectionId: 'application-operator.lixueduan.com',
  webhooks: applicationWebhooks,
  setup: addApplicationController,
};
