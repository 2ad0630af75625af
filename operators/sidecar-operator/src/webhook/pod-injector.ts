import type { Pod } from '@ops/core';
import {
  type AdmissionHandler,
  defineWebhook,
  mutatingWebhook,
  type WebhookDeclaration,
} from '@ops/core/webhook';
import type { SidecarSetLister } from './cached-sidecar-sets.js';
import { injectSidecars } from './inject-sidecars.js';

/** Where kube-apiserver calls the Pod mutating webhook `mpod.kb.io`. */
export const mutatePodPath = '/mutate-sidecar-pod';

/** The namespace config/default deploys the operator to. */
export const operatorNamespace = 'sidecar-operator-system';

/**
 * The namespaces whose Pods the webhook never sees (its `namespaceSelector`): kube-system and
 * the operator's own. The controller does not count their Pods either, since they can never
 * be injected.
 */
export const excludedNamespaces: readonly string[] = ['kube-system', operatorNamespace];

/**
 * Seconds kube-apiserver waits for `mpod.kb.io` before applying its failure policy: every
 * Pod creation in the cluster waits at most this long when the operator hangs.
 */
export const podWebhookTimeoutSeconds = 3;

/**
 * The Pod webhook's handler: injects the sidecars of every SidecarSet `sidecarSets` lists
 * ({@link injectSidecars}: the clash rule, the hash annotation, idempotence) and answers with
 * the JSON patch. It reads only `sidecarSets` (the informer cache), never the API server.
 * A container left out because its name was taken becomes a warning kubectl prints.
 */
export function podInjector(sidecarSets: SidecarSetLister): AdmissionHandler {
  return mutatingWebhook<Pod>(async (pod, request) => {
    const injection = injectSidecars(pod, await sidecarSets.list());
    for (const { sidecarSet, container, takenBy } of injection.skipped)
      request.warn(
        `SidecarSet ${sidecarSet}: container "${container}" not injected, the name is taken by ${takenBy}`,
      );
    return injection.matched.length === 0 ? pod : injection.pod;
  });
}

/**
 * The Pod mutating webhook `mpod.kb.io` at {@link mutatePodPath}, Pod CREATE only (injection
 * happens at creation; running Pods are never changed).
 *
 * It fails closed, as the tutorial's: `failurePolicy: Fail`, so while the webhook cannot
 * answer (operator down, not ready, cache not synced) no Pod of the namespaces it sees is
 * created, and none runs without the sidecars it should have (a logging sidecar missing is
 * lost data); ReplicaSets and Jobs retry until it is back. It cannot lock up the cluster:
 * - `namespaceSelector` leaves out kube-system and the operator's own namespace
 *   ({@link operatorNamespace}), so the control plane's Pods and the operator's own Pods are
 *   created even when the operator is down, and the operator can always come back;
 * - `timeoutSeconds` is {@link podWebhookTimeoutSeconds}.
 *
 * config/webhook-fail-open renders it with `failurePolicy: Ignore` instead (see the README):
 * Pods are then created without sidecars while the webhook is down; they count as matched but
 * not updated (UPDATED < MATCHED, condition `Ready` False, reason `PodsNotUpdated`) until
 * they are recreated.
 */
export function podWebhook(sidecarSets: SidecarSetLister): WebhookDeclaration {
  return defineWebhook({
    type: 'mutating',
    name: 'mpod.kb.io',
    path: mutatePodPath,
    rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] }],
    failurePolicy: 'Fail',
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    timeoutSeconds: podWebhookTimeoutSeconds,
    namespaceSelector: {
      matchExpressions: [
        {
          key: 'kubernetes.io/metadata.name',
          operator: 'NotIn',
          values: [...excludedNamespaces],
        },
      ],
    },
    handler: podInjector(sidecarSets),
  });
}
