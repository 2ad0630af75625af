import { type Manager, type OperatorDefinition, pods } from '@ops/core';
import type { WebhookDeclaration, WebhookServer } from '@ops/core/webhook';
import { type SidecarSet, sidecarSetResource } from './api/v1alpha1/sidecar-set.js';
import { podLabelIndex, podLabelIndexValues } from './controller/pod-label-index.js';
import { sidecarSetsForPod } from './controller/pod-requests.js';
import { sidecarSetReconciler } from './controller/sidecar-set.js';
import { CachedSidecarSets } from './webhook/cached-sidecar-sets.js';
import { podWebhook } from './webhook/pod-injector.js';
import { sidecarSetValidator } from './webhook/sidecar-set-validator.js';

/**
 * Adds the SidecarSet controller to a manager. It reconciles every SidecarSet, and Pod
 * events wake the SidecarSets they concern ({@link sidecarSetsForPod}; on an update, for the
 * Pod's old labels too, so a Pod relabelled away is uncounted). The Pod informer gets the
 * label index the reconciler finds a SidecarSet's Pods with. Nothing polls. Assumes a manager
 * over all namespaces (as `runOperator` makes it): SidecarSets are cluster-scoped and select
 * Pods everywhere, so the index is on the informer of Pods in every namespace.
 */
export function addSidecarSetController(manager: Manager): void {
  const podInformer = manager.cache.getInformer(pods.descriptor);
  if (!podInformer.hasIndex(podLabelIndex))
    podInformer.addIndex(podLabelIndex, podLabelIndexValues);
  const sidecarSetInformer = manager.cache.getInformer(sidecarSetResource.descriptor);
  const cachedSidecarSets = () => sidecarSetInformer.list() as SidecarSet[];
  const controller = manager
    .controller('sidecar-set')
    .for(sidecarSetResource)
    .watches(pods, (pod) => sidecarSetsForPod(pod, cachedSidecarSets()))
    .complete(
      sidecarSetReconciler({
        client: manager.client,
        pods: podInformer,
        recorder: manager.eventRecorder('sidecar-operator'),
      }),
    );
  podInformer.addEventHandler({
    onUpdate: (old, pod) => {
      if (JSON.stringify(old.metadata?.labels) === JSON.stringify(pod.metadata?.labels)) return;
      for (const request of sidecarSetsForPod(old, cachedSidecarSets()))
        controller.enqueue(request);
    },
  });
}

/** The sidecar-operator's parts that share one SidecarSet cache binding. */
export interface SidecarOperator extends OperatorDefinition {
  /** `mpod.kb.io` (reading {@link SidecarOperator.sidecarSets}) and `vsidecarset.kb.io`. */
  webhooks: readonly WebhookDeclaration[];
  /** What the Pod webhook reads: bound to the manager's cache by `setup`. */
  sidecarSets: CachedSidecarSets;
  setup: (manager: Manager) => void;
}

/**
 * The sidecar-operator for `runOperator` (src/main.ts): its name (also the kustomize
 * namePrefix of config/default), its Lease, its webhooks and its controller. A new object on
 * every call, each with its own {@link CachedSidecarSets}: `setup` binds it to that manager's
 * informer cache, so the Pod webhook answers from the cache the controller fills.
 */
export function createSidecarOperator(): SidecarOperator {
  const sidecarSets = new CachedSidecarSets();
  return {
    name: 'sidecar-operator',
    leaderElectionId: 'sidecar-operator.apps.chinalhr.github.io',
    webhooks: [podWebhook(sidecarSets), sidecarSetValidator],
    sidecarSets,
    setup: (manager) => {
      sidecarSets.bind(manager.cache);
      addSidecarSetController(manager);
    },
  };
}

/** Registers an operator's webhooks on a webhook server (as `runOperator` does). */
export function registerWebhooks(operator: SidecarOperator, server: WebhookServer): void {
  for (const webhook of operator.webhooks) server.register(webhook);
}
