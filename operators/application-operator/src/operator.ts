import type { Manager, WebhookServer } from '@ops/core';
import { applicationResource } from './api/v1/application.js';
import { applicationReconciler } from './controller/application.js';
import {
  defaultApplication,
  mutatePath,
  validateApplication,
  validatePath,
} from './webhook/application.js';

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
    .owns({ apiVersion: 'apps/v1', kind: 'Deployment' })
    .watches({ apiVersion: 'apps/v1', kind: 'Deployment' }, (deployment) => {
      const name = deployment.metadata?.name ?? '';
      const owned = (deployment.metadata?.ownerReferences ?? []).some(
        (ref) => ref.controller && ref.kind === applicationResource.kind,
      );
      return !owned && name.startsWith('app-')
        ? [{ namespace: deployment.metadata?.namespace ?? '', name: name.slice(4) }]
        : [];
    })
    .complete(applicationReconciler({ client: manager.client, recorder }));
}

/** Registers the Application webhooks (validating and defaulting) on a webhook server. */
export function registerApplicationWebhooks(server: WebhookServer): void {
  server.register(validatePath, validateApplication);
  server.register(mutatePath, defaultApplication);
}
