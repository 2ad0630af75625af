// Kind-specific rules, one file per kind or kind family, as kube-apiserver's registry keeps a
// strategy beside each resource; this table maps a resource's storage key to its strategy.
import { configMapStrategy, secretStrategy } from './config-data.js';
import { customResourceDefinitionStrategy } from './custom-resource-definitions.js';
import { jobStrategy } from './jobs.js';
import { namespaceStrategy } from './namespaces.js';
import { podStrategy } from './pods.js';
import { serviceStrategy } from './services.js';
import type { Strategy } from './strategy.js';
import {
  mutatingWebhookConfigurationStrategy,
  validatingWebhookConfigurationStrategy,
} from './webhook-configurations.js';
import {
  daemonSetStrategy,
  deploymentStrategy,
  replicaSetStrategy,
  statefulSetStrategy,
} from './workloads.js';

export { jobLabels } from './jobs.js';
export type { Strategy, StrategyContext } from './strategy.js';

const strategies: Record<string, Strategy> = {
  '/namespaces': namespaceStrategy,
  '/pods': podStrategy,
  '/services': serviceStrategy,
  '/secrets': secretStrategy,
  '/configmaps': configMapStrategy,
  '/nodes': { keepStatusOnCreate: true },
  '/events': { keepStatusOnCreate: true },
  'events.k8s.io/events': { keepStatusOnCreate: true },
  'batch/jobs': jobStrategy,
  'apps/deployments': deploymentStrategy,
  'apps/replicasets': replicaSetStrategy,
  'apps/statefulsets': statefulSetStrategy,
  'apps/daemonsets': daemonSetStrategy,
  'apiextensions.k8s.io/customresourcedefinitions': customResourceDefinitionStrategy,
  'admissionregistration.k8s.io/mutatingwebhookconfigurations':
    mutatingWebhookConfigurationStrategy,
  'admissionregistration.k8s.io/validatingwebhookconfigurations':
    validatingWebhookConfigurationStrategy,
};

/** The strategy of a resource (`group/plural`); an empty one for kinds without special rules. */
export function strategyFor(storageKey: string): Strategy {
  return strategies[storageKey] ?? {};
}
