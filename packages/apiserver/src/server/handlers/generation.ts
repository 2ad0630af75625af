import type { KubernetesObject, ObjectMeta } from '@ops/api';
import { canonicalJson } from '../../json/json.js';
import { type ResourceType, storageKeyOf } from '../../registry/resource-type.js';

/**
 * The built-in kinds whose registry strategy sets `metadata.generation` (to 1 on create, +1 on
 * a change of what they consider their spec), by storage key. Every other built-in kind
 * (ConfigMap, Secret, Service, Namespace, Node, ServiceAccount, Endpoints, Events, Lease,
 * RBAC, PersistentVolume(Claim)s, StorageClass, ResourceQuota, LimitRange, RuntimeClass ...)
 * has none: kube's `PrepareForCreate` there leaves it alone. Each entry, and each of those
 * without, was checked by creating one on kube-apiserver 1.37; Pods have one since
 * PodObservedGenerationTracking (on by default from 1.34).
 */
const kindsWithGeneration = new Set([
  '/pods',
  '/podtemplates',
  '/replicationcontrollers',
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'apps/daemonsets',
  'batch/jobs',
  'batch/cronjobs',
  'autoscaling/horizontalpodautoscalers',
  'scheduling.k8s.io/priorityclasses',
  'discovery.k8s.io/endpointslices',
  'policy/poddisruptionbudgets',
  'networking.k8s.io/ingresses',
  'networking.k8s.io/ingressclasses',
  'networking.k8s.io/networkpolicies',
  'admissionregistration.k8s.io/mutatingwebhookconfigurations',
  'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'apiextensions.k8s.io/customresourcedefinitions',
]);

/** Whether objects of `type` carry a server-kept `metadata.generation` (every custom resource does). */
export function hasGeneration(type: ResourceType): boolean {
  return type.custom || kindsWithGeneration.has(storageKeyOf(type));
}

/**
 * The generation of a new object: 1 for kinds that keep one; for the others, whatever the
 * client sent (kube-apiserver neither sets nor clears it there), or none.
 */
export function generationOnCreate(
  type: ResourceType,
  requested: number | undefined,
): number | undefined {
  return hasGeneration(type) ? 1 : requested;
}

/**
 * The generation after an update from `old` to `next`. A client can never change it
 * (k8s.io/apiserver `rest.BeforeUpdate` restores the old value); kinds that keep one add 1 when
 * their spec changed: for most built-ins anything but metadata and status; for a Deployment
 * its annotations too (apps `deploymentStrategy.PrepareForUpdate`: they are copied to its
 * ReplicaSets); for a custom resource anything but metadata, and status too when the CRD has
 * no status subresource (apiextensions `customResourceStrategy.PrepareForUpdate`). A write to
 * the `status` subresource keeps the generation.
 */
export function generationOnUpdate(
  type: ResourceType,
  old: KubernetesObject,
  next: KubernetesObject,
  subresource = '',
): number | undefined {
  const previous = old.metadata?.generation;
  // A status write never bumps it (kube's status strategies), whatever else it may change.
  if (!hasGeneration(type) || subresource === 'status') return previous;
  const base = previous ?? 1;
  return base + (specChanged(type, old, next) ? 1 : 0);
}

function specChanged(type: ResourceType, old: KubernetesObject, next: KubernetesObject): boolean {
  const keepStatus = type.custom && !type.subresources.status;
  const strip = (object: KubernetesObject): string => {
    const { metadata: _m, status, apiVersion: _a, kind: _k, ...rest } = object;
    return canonicalJson(keepStatus ? { ...rest, status } : rest);
  };
  if (strip(old) !== strip(next)) return true;
  if (storageKeyOf(type) === 'apps/deployments')
    return (
      canonicalJson(old.metadata?.annotations ?? {}) !==
      canonicalJson(next.metadata?.annotations ?? {})
    );
  return false;
}

/**
 * Marks `meta` as being deleted, as kube-apiserver does when a delete sets the
 * deletionTimestamp for the first time (graceful deletion, finalizers): an object with a
 * generation above 0 gets the next one (k8s.io/apiserver `rest.BeforeDelete` for graceful
 * deletion and `markAsDeleting` in `registry/generic/registry/store.go` for finalizers), so a
 * controller that filters on generation changes sees the delete. Does nothing to the
 * generation of an object already being deleted.
 */
export function bumpGenerationOnDeletion(meta: ObjectMeta): void {
  if (meta.deletionTimestamp !== undefined) return;
  if (typeof meta.generation === 'number' && meta.generation > 0) meta.generation += 1;
}

/** Writes a generation into `meta`, or removes it when `generation` is undefined. */
export function setGeneration(meta: ObjectMeta, generation: number | undefined): void {
  if (generation === undefined) delete meta.generation;
  else meta.generation = generation;
}
