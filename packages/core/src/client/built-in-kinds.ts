/**
 * The common built-in kinds of Kubernetes, typed: one {@link ResourceKind} per kind, named
 * after its resource in lower camelCase (`deployments`, `configMaps`, ...), and the type of
 * its objects (`Deployment`, `ConfigMap`, ...), so that `client.get(deployments, name, ns)`
 * resolves to a `Deployment` and `owns(deployments)` / `watches(pods, map)` hand typed objects
 * to their callbacks, with no hand-written type.
 *
 * The object types come from the npm package `kubernetes-types` (generated from the
 * Kubernetes OpenAPI, one package version per Kubernetes minor), not from
 * `@kubernetes/client-node`'s models, because:
 *
 * - They describe the JSON the client and cache return: timestamps are RFC 3339 strings,
 *   int-or-string fields `number | string`, quantities strings. client-node's models declare
 *   timestamps as `Date` (what its own deserializer makes), which `JSON.parse` never gives:
 *   `metadata.creationTimestamp.getTime()` would type-check and throw.
 * - They are interfaces only: no runtime code, no dependencies, and `apiVersion` and `kind`
 *   are literal types (`'apps/v1'`, `'Deployment'`). client-node's models are classes with
 *   serializer metadata whose `apiVersion` and `kind` are any string.
 * - Version: `kubernetes-types` 1.30.0 is the newest it publishes (client-node 2.0.1 is
 *   generated from 1.36); the v1 APIs here only gain fields between minors, so every field
 *   typed is served by Kubernetes 1.30 to 1.37, and fields added after 1.30 are missing from
 *   the types (write them with an intersection, `Pod & { spec?: { hostnameOverride?: string } }`,
 *   until a newer package ships). Moving to another source changes this file only.
 *
 * Each object type is `kubernetes-types`' type with `apiVersion`, `kind` and `metadata`
 * required (the API server always returns them; the client fills `apiVersion` and `kind` in
 * list items) and `metadata` typed as `@ops/api`'s `ObjectMeta`, so an object works with
 * `setControllerReference`, `setCondition` and the rest of `@ops/core` as it is. A kind not
 * listed is declared the same way:
 * `objectKind<MyType>('storage.k8s.io/v1', 'CSIDriver', { plural: 'csidrivers', namespaced: false })`.
 */

import type { ClusterRole, KubernetesObject, ObjectMeta } from '@ops/api';
import type * as admissionregistration from 'kubernetes-types/admissionregistration/v1.js';
import type * as apps from 'kubernetes-types/apps/v1.js';
import type * as autoscaling from 'kubernetes-types/autoscaling/v2.js';
import type * as batch from 'kubernetes-types/batch/v1.js';
import type * as coordination from 'kubernetes-types/coordination/v1.js';
import type * as core from 'kubernetes-types/core/v1.js';
import type * as discovery from 'kubernetes-types/discovery/v1.js';
import type * as networking from 'kubernetes-types/networking/v1.js';
import type * as policy from 'kubernetes-types/policy/v1.js';
import type * as rbac from 'kubernetes-types/rbac/v1.js';
import type * as storage from 'kubernetes-types/storage/v1.js';
import { objectKind, type ResourceKind } from '../crd/object-kind.js';
import type { OwnerResource } from '../crd/owner-reference-permissions.js';

/**
 * A built-in object as the API server returns it: `kubernetes-types`' type `T` with
 * `apiVersion` and `kind` required literals and `metadata` required as `@ops/api`'s
 * `ObjectMeta`.
 */
export type BuiltInObject<T extends { apiVersion?: string; kind?: string }> = Omit<
  T,
  'apiVersion' | 'kind' | 'metadata'
> & {
  apiVersion: NonNullable<T['apiVersion']>;
  kind: NonNullable<T['kind']>;
  metadata: ObjectMeta;
};

/** A Namespace (v1), as the API server returns it. */
export interface Namespace extends BuiltInObject<core.Namespace> {}
/** A Node (v1), as the API server returns it. */
export interface Node extends BuiltInObject<core.Node> {}
/** A Pod (v1), as the API server returns it. */
export interface Pod extends BuiltInObject<core.Pod> {}
/** A Service (v1), as the API server returns it. */
export interface Service extends BuiltInObject<core.Service> {}
/** A Endpoints (v1), as the API server returns it. */
export interface Endpoints extends BuiltInObject<core.Endpoints> {}
/** A ConfigMap (v1), as the API server returns it. */
export interface ConfigMap extends BuiltInObject<core.ConfigMap> {}
/** A Secret (v1), as the API server returns it. */
export interface Secret extends BuiltInObject<core.Secret> {}
/** A ServiceAccount (v1), as the API server returns it. */
export interface ServiceAccount extends BuiltInObject<core.ServiceAccount> {}
/** A Event (v1), as the API server returns it. */
export interface Event extends BuiltInObject<core.Event> {}
/** A PersistentVolumeClaim (v1), as the API server returns it. */
export interface PersistentVolumeClaim extends BuiltInObject<core.PersistentVolumeClaim> {}
/** A PersistentVolume (v1), as the API server returns it. */
export interface PersistentVolume extends BuiltInObject<core.PersistentVolume> {}
/** A Deployment (apps/v1), as the API server returns it. */
export interface Deployment extends BuiltInObject<apps.Deployment> {}
/** A ReplicaSet (apps/v1), as the API server returns it. */
export interface ReplicaSet extends BuiltInObject<apps.ReplicaSet> {}
/** A StatefulSet (apps/v1), as the API server returns it. */
export interface StatefulSet extends BuiltInObject<apps.StatefulSet> {}
/** A DaemonSet (apps/v1), as the API server returns it. */
export interface DaemonSet extends BuiltInObject<apps.DaemonSet> {}
/** A Job (batch/v1), as the API server returns it. */
export interface Job extends BuiltInObject<batch.Job> {}
/** A CronJob (batch/v1), as the API server returns it. */
export interface CronJob extends BuiltInObject<batch.CronJob> {}
/** A Ingress (networking.k8s.io/v1), as the API server returns it. */
export interface Ingress extends BuiltInObject<networking.Ingress> {}
/** A IngressClass (networking.k8s.io/v1), as the API server returns it. */
export interface IngressClass extends BuiltInObject<networking.IngressClass> {}
/** A NetworkPolicy (networking.k8s.io/v1), as the API server returns it. */
export interface NetworkPolicy extends BuiltInObject<networking.NetworkPolicy> {}
/** A EndpointSlice (discovery.k8s.io/v1), as the API server returns it. */
export interface EndpointSlice extends BuiltInObject<discovery.EndpointSlice> {}
/** A Role (rbac.authorization.k8s.io/v1), as the API server returns it. */
export interface Role extends BuiltInObject<rbac.Role> {}
/** A RoleBinding (rbac.authorization.k8s.io/v1), as the API server returns it. */
export interface RoleBinding extends BuiltInObject<rbac.RoleBinding> {}
/**
 * A ClusterRole (rbac.authorization.k8s.io/v1) is `@ops/api`'s `ClusterRole`, the type the
 * generated RBAC is written in (the API server always returns `rules`, empty or not).
 */
export type { ClusterRole } from '@ops/api';
/** A ClusterRoleBinding (rbac.authorization.k8s.io/v1), as the API server returns it. */
export interface ClusterRoleBinding extends BuiltInObject<rbac.ClusterRoleBinding> {}
/** A Lease (coordination.k8s.io/v1), as the API server returns it. */
export interface Lease extends BuiltInObject<coordination.Lease> {}
/** A HorizontalPodAutoscaler (autoscaling/v2), as the API server returns it. */
export interface HorizontalPodAutoscaler
  extends BuiltInObject<autoscaling.HorizontalPodAutoscaler> {}
/** A PodDisruptionBudget (policy/v1), as the API server returns it. */
export interface PodDisruptionBudget extends BuiltInObject<policy.PodDisruptionBudget> {}
/** A StorageClass (storage.k8s.io/v1), as the API server returns it. */
export interface StorageClass extends BuiltInObject<storage.StorageClass> {}
/** A MutatingWebhookConfiguration (admissionregistration.k8s.io/v1), as the API server returns it. */
export interface MutatingWebhookConfiguration
  extends BuiltInObject<admissionregistration.MutatingWebhookConfiguration> {}
/** A ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1), as the API server returns it. */
export interface ValidatingWebhookConfiguration
  extends BuiltInObject<admissionregistration.ValidatingWebhookConfiguration> {}

/** The Namespace kind of `v1`: resource `namespaces`, cluster-scoped. */
export const namespaces: ResourceKind<Namespace> = objectKind<Namespace>('v1', 'Namespace', {
  plural: 'namespaces',
  namespaced: false,
});
/** The Node kind of `v1`: resource `nodes`, cluster-scoped. */
export const nodes: ResourceKind<Node> = objectKind<Node>('v1', 'Node', {
  plural: 'nodes',
  namespaced: false,
});
/** The Pod kind of `v1`: resource `pods`, namespaced. */
export const pods: ResourceKind<Pod> = objectKind<Pod>('v1', 'Pod', {
  plural: 'pods',
  namespaced: true,
});
/** The Service kind of `v1`: resource `services`, namespaced. */
export const services: ResourceKind<Service> = objectKind<Service>('v1', 'Service', {
  plural: 'services',
  namespaced: true,
});
/** The Endpoints kind of `v1`: resource `endpoints`, namespaced. */
export const endpoints: ResourceKind<Endpoints> = objectKind<Endpoints>('v1', 'Endpoints', {
  plural: 'endpoints',
  namespaced: true,
});
/** The ConfigMap kind of `v1`: resource `configmaps`, namespaced. */
export const configMaps: ResourceKind<ConfigMap> = objectKind<ConfigMap>('v1', 'ConfigMap', {
  plural: 'configmaps',
  namespaced: true,
});
/** The Secret kind of `v1`: resource `secrets`, namespaced. */
export const secrets: ResourceKind<Secret> = objectKind<Secret>('v1', 'Secret', {
  plural: 'secrets',
  namespaced: true,
});
/** The ServiceAccount kind of `v1`: resource `serviceaccounts`, namespaced. */
export const serviceAccounts: ResourceKind<ServiceAccount> = objectKind<ServiceAccount>(
  'v1',
  'ServiceAccount',
  {
    plural: 'serviceaccounts',
    namespaced: true,
  },
);
/** The Event kind of `v1`: resource `events`, namespaced. */
export const events: ResourceKind<Event> = objectKind<Event>('v1', 'Event', {
  plural: 'events',
  namespaced: true,
});
/** The PersistentVolumeClaim kind of `v1`: resource `persistentvolumeclaims`, namespaced. */
export const persistentVolumeClaims: ResourceKind<PersistentVolumeClaim> =
  objectKind<PersistentVolumeClaim>('v1', 'PersistentVolumeClaim', {
    plural: 'persistentvolumeclaims',
    namespaced: true,
  });
/** The PersistentVolume kind of `v1`: resource `persistentvolumes`, cluster-scoped. */
export const persistentVolumes: ResourceKind<PersistentVolume> = objectKind<PersistentVolume>(
  'v1',
  'PersistentVolume',
  {
    plural: 'persistentvolumes',
    namespaced: false,
  },
);
/** The Deployment kind of `apps/v1`: resource `deployments`, namespaced. */
export const deployments: ResourceKind<Deployment> = objectKind<Deployment>(
  'apps/v1',
  'Deployment',
  {
    plural: 'deployments',
    namespaced: true,
  },
);
/** The ReplicaSet kind of `apps/v1`: resource `replicasets`, namespaced. */
export const replicaSets: ResourceKind<ReplicaSet> = objectKind<ReplicaSet>(
  'apps/v1',
  'ReplicaSet',
  {
    plural: 'replicasets',
    namespaced: true,
  },
);
/** The StatefulSet kind of `apps/v1`: resource `statefulsets`, namespaced. */
export const statefulSets: ResourceKind<StatefulSet> = objectKind<StatefulSet>(
  'apps/v1',
  'StatefulSet',
  {
    plural: 'statefulsets',
    namespaced: true,
  },
);
/** The DaemonSet kind of `apps/v1`: resource `daemonsets`, namespaced. */
export const daemonSets: ResourceKind<DaemonSet> = objectKind<DaemonSet>('apps/v1', 'DaemonSet', {
  plural: 'daemonsets',
  namespaced: true,
});
/** The Job kind of `batch/v1`: resource `jobs`, namespaced. */
export const jobs: ResourceKind<Job> = objectKind<Job>('batch/v1', 'Job', {
  plural: 'jobs',
  namespaced: true,
});
/** The CronJob kind of `batch/v1`: resource `cronjobs`, namespaced. */
export const cronJobs: ResourceKind<CronJob> = objectKind<CronJob>('batch/v1', 'CronJob', {
  plural: 'cronjobs',
  namespaced: true,
});
/** The Ingress kind of `networking.k8s.io/v1`: resource `ingresses`, namespaced. */
export const ingresses: ResourceKind<Ingress> = objectKind<Ingress>(
  'networking.k8s.io/v1',
  'Ingress',
  {
    plural: 'ingresses',
    namespaced: true,
  },
);
/** The IngressClass kind of `networking.k8s.io/v1`: resource `ingressclasses`, cluster-scoped. */
export const ingressClasses: ResourceKind<IngressClass> = objectKind<IngressClass>(
  'networking.k8s.io/v1',
  'IngressClass',
  {
    plural: 'ingressclasses',
    namespaced: false,
  },
);
/** The NetworkPolicy kind of `networking.k8s.io/v1`: resource `networkpolicies`, namespaced. */
export const networkPolicies: ResourceKind<NetworkPolicy> = objectKind<NetworkPolicy>(
  'networking.k8s.io/v1',
  'NetworkPolicy',
  {
    plural: 'networkpolicies',
    namespaced: true,
  },
);
/** The EndpointSlice kind of `discovery.k8s.io/v1`: resource `endpointslices`, namespaced. */
export const endpointSlices: ResourceKind<EndpointSlice> = objectKind<EndpointSlice>(
  'discovery.k8s.io/v1',
  'EndpointSlice',
  {
    plural: 'endpointslices',
    namespaced: true,
  },
);
/** The Role kind of `rbac.authorization.k8s.io/v1`: resource `roles`, namespaced. */
export const roles: ResourceKind<Role> = objectKind<Role>('rbac.authorization.k8s.io/v1', 'Role', {
  plural: 'roles',
  namespaced: true,
});
/** The RoleBinding kind of `rbac.authorization.k8s.io/v1`: resource `rolebindings`, namespaced. */
export const roleBindings: ResourceKind<RoleBinding> = objectKind<RoleBinding>(
  'rbac.authorization.k8s.io/v1',
  'RoleBinding',
  {
    plural: 'rolebindings',
    namespaced: true,
  },
);
/** The ClusterRole kind of `rbac.authorization.k8s.io/v1`: resource `clusterroles`, cluster-scoped. */
export const clusterRoles: ResourceKind<ClusterRole & KubernetesObject> = objectKind<
  ClusterRole & KubernetesObject
>('rbac.authorization.k8s.io/v1', 'ClusterRole', {
  plural: 'clusterroles',
  namespaced: false,
});
/** The ClusterRoleBinding kind of `rbac.authorization.k8s.io/v1`: resource `clusterrolebindings`, cluster-scoped. */
export const clusterRoleBindings: ResourceKind<ClusterRoleBinding> = objectKind<ClusterRoleBinding>(
  'rbac.authorization.k8s.io/v1',
  'ClusterRoleBinding',
  {
    plural: 'clusterrolebindings',
    namespaced: false,
  },
);
/** The Lease kind of `coordination.k8s.io/v1`: resource `leases`, namespaced. */
export const leases: ResourceKind<Lease> = objectKind<Lease>('coordination.k8s.io/v1', 'Lease', {
  plural: 'leases',
  namespaced: true,
});
/** The HorizontalPodAutoscaler kind of `autoscaling/v2`: resource `horizontalpodautoscalers`, namespaced. */
export const horizontalPodAutoscalers: ResourceKind<HorizontalPodAutoscaler> =
  objectKind<HorizontalPodAutoscaler>('autoscaling/v2', 'HorizontalPodAutoscaler', {
    plural: 'horizontalpodautoscalers',
    namespaced: true,
  });
/** The PodDisruptionBudget kind of `policy/v1`: resource `poddisruptionbudgets`, namespaced. */
export const podDisruptionBudgets: ResourceKind<PodDisruptionBudget> =
  objectKind<PodDisruptionBudget>('policy/v1', 'PodDisruptionBudget', {
    plural: 'poddisruptionbudgets',
    namespaced: true,
  });
/** The StorageClass kind of `storage.k8s.io/v1`: resource `storageclasses`, cluster-scoped. */
export const storageClasses: ResourceKind<StorageClass> = objectKind<StorageClass>(
  'storage.k8s.io/v1',
  'StorageClass',
  {
    plural: 'storageclasses',
    namespaced: false,
  },
);
/** The MutatingWebhookConfiguration kind of `admissionregistration.k8s.io/v1`: resource `mutatingwebhookconfigurations`, cluster-scoped. */
export const mutatingWebhookConfigurations: ResourceKind<MutatingWebhookConfiguration> =
  objectKind<MutatingWebhookConfiguration>(
    'admissionregistration.k8s.io/v1',
    'MutatingWebhookConfiguration',
    {
      plural: 'mutatingwebhookconfigurations',
      namespaced: false,
    },
  );
/** The ValidatingWebhookConfiguration kind of `admissionregistration.k8s.io/v1`: resource `validatingwebhookconfigurations`, cluster-scoped. */
export const validatingWebhookConfigurations: ResourceKind<ValidatingWebhookConfiguration> =
  objectKind<ValidatingWebhookConfiguration>(
    'admissionregistration.k8s.io/v1',
    'ValidatingWebhookConfiguration',
    {
      plural: 'validatingwebhookconfigurations',
      namespaced: false,
    },
  );

/** Every built-in kind above, in declaration order (core, apps, batch, networking, ...). */
export const builtInKinds: readonly ResourceKind[] = Object.freeze([
  namespaces,
  nodes,
  pods,
  services,
  endpoints,
  configMaps,
  secrets,
  serviceAccounts,
  events,
  persistentVolumeClaims,
  persistentVolumes,
  deployments,
  replicaSets,
  statefulSets,
  daemonSets,
  jobs,
  cronJobs,
  ingresses,
  ingressClasses,
  networkPolicies,
  endpointSlices,
  roles,
  roleBindings,
  clusterRoles,
  clusterRoleBindings,
  leases,
  horizontalPodAutoscalers,
  podDisruptionBudgets,
  storageClasses,
  mutatingWebhookConfigurations,
  validatingWebhookConfigurations,
]);

/**
 * {@link builtInKinds} as `@ops/core/crd`'s RBAC helpers take resources (group, kind,
 * plural): give them with the operator's custom resources to `shardingPermissions`, so that
 * a sharded controller owning Deployments gets `patch` on `deployments`.
 */
export const builtInKindResources: readonly OwnerResource[] = Object.freeze(
  builtInKinds.map((kind) => ({
    group: kind.descriptor.group,
    kind: kind.kind,
    plural: kind.descriptor.plural,
  })),
);
