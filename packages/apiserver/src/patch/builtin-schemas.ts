/**
 * The strategic merge patch metadata of the built-in kinds, transcribed from the
 * `patchStrategy` / `patchMergeKey` struct tags of k8s.io/api. Only fields that carry a tag
 * (or lead to one) are listed; everything else patches like a JSON merge patch.
 *
 * Worth knowing, because it surprises: `tolerations`, `readinessGates`, `envFrom`, a node's
 * `spec.taints`, a ServiceAccount's `imagePullSecrets`, RBAC `rules` and `subjects`,
 * Endpoints `subsets` and every list not named here have no tag, so a strategic merge patch
 * replaces them whole.
 */
import type { StrategicField, StrategicSchema } from './strategic-schema.js';

const schema = (fields: Record<string, StrategicField>): StrategicSchema => ({ fields });
const nested = (of: StrategicSchema): StrategicField => ({ schema: of });
const mergeBy = (patchMergeKey: string, of?: StrategicSchema): StrategicField => ({
  patchStrategy: 'merge',
  patchMergeKey,
  ...(of ? { schema: of } : {}),
});
const mergeRetainingBy = (patchMergeKey: string): StrategicField => ({
  patchStrategy: 'merge,retainKeys',
  patchMergeKey,
});
/** A list of scalars that merges as an ordered set (`patchStrategy:"merge"`, no key). */
const set: StrategicField = { patchStrategy: 'merge' };
const byType = mergeBy('type');

/** `metav1.ObjectMeta`. */
export const objectMetaSchema: StrategicSchema = schema({
  ownerReferences: mergeBy('uid'),
  finalizers: set,
});

/** `corev1.Container`, and `EphemeralContainer`, which carries the same tags. */
export const containerSchema: StrategicSchema = schema({
  ports: mergeBy('containerPort'),
  env: mergeBy('name'),
  volumeMounts: mergeBy('mountPath'),
  volumeDevices: mergeBy('devicePath'),
});

/** `corev1.PodSpec`. */
export const podSpecSchema: StrategicSchema = schema({
  volumes: mergeRetainingBy('name'),
  initContainers: mergeBy('name', containerSchema),
  containers: mergeBy('name', containerSchema),
  ephemeralContainers: mergeBy('name', containerSchema),
  imagePullSecrets: mergeBy('name'),
  hostAliases: mergeBy('ip'),
  topologySpreadConstraints: mergeBy('topologyKey'),
  schedulingGates: mergeBy('name'),
  resourceClaims: mergeRetainingBy('name'),
});

/** `corev1.PodStatus`. */
export const podStatusSchema: StrategicSchema = schema({
  conditions: byType,
  podIPs: mergeBy('ip'),
  hostIPs: mergeBy('ip'),
  resourceClaimStatuses: mergeRetainingBy('name'),
});

/** `corev1.PodTemplateSpec`, the `spec.template` of every workload. */
export const podTemplateSpecSchema: StrategicSchema = schema({
  metadata: nested(objectMetaSchema),
  spec: nested(podSpecSchema),
});

/** A kind: `metadata` is always `ObjectMeta`, plus its own fields. */
const kind = (fields: Record<string, StrategicField> = {}): StrategicSchema =>
  schema({ metadata: nested(objectMetaSchema), ...fields });

/** A kind whose only tagged fields are `spec.template` and `status.conditions`. */
const workload = (spec: Record<string, StrategicField> = {}): StrategicSchema =>
  kind({
    spec: nested(schema({ template: nested(podTemplateSpecSchema), ...spec })),
    status: nested(schema({ conditions: byType })),
  });

const statusConditions = (): StrategicSchema =>
  kind({ status: nested(schema({ conditions: byType })) });

const jobSpecSchema = schema({ template: nested(podTemplateSpecSchema) });
const webhooks = (): StrategicSchema => kind({ webhooks: mergeBy('name') });

/** Every built-in kind this server knows, keyed `group/version/Kind` (`v1/Pod` for core). */
const entries: [string, StrategicSchema][] = [
  // core/v1
  ['v1/Pod', kind({ spec: nested(podSpecSchema), status: nested(podStatusSchema) })],
  ['v1/PodTemplate', kind({ template: nested(podTemplateSpecSchema) })],
  ['v1/ReplicationController', workload()],
  [
    'v1/Service',
    kind({
      spec: nested(schema({ ports: mergeBy('port') })),
      status: nested(schema({ conditions: byType })),
    }),
  ],
  ['v1/Endpoints', kind()],
  [
    'v1/Node',
    kind({
      spec: nested(schema({ podCIDRs: set })),
      status: nested(schema({ conditions: byType, addresses: byType })),
    }),
  ],
  ['v1/Namespace', statusConditions()],
  ['v1/ServiceAccount', kind({ secrets: mergeBy('name') })],
  ['v1/ConfigMap', kind()],
  ['v1/Secret', kind()],
  ['v1/Event', kind()],
  ['v1/PersistentVolume', kind()],
  ['v1/PersistentVolumeClaim', statusConditions()],
  ['v1/LimitRange', kind()],
  ['v1/ResourceQuota', kind()],
  // apps/v1
  ['apps/v1/Deployment', workload({ strategy: { patchStrategy: 'retainKeys' } })],
  ['apps/v1/ReplicaSet', workload()],
  ['apps/v1/StatefulSet', workload()],
  ['apps/v1/DaemonSet', workload()],
  ['apps/v1/ControllerRevision', kind()],
  // batch/v1
  [
    'batch/v1/Job',
    kind({ spec: nested(jobSpecSchema), status: nested(schema({ conditions: byType })) }),
  ],
  [
    'batch/v1/CronJob',
    kind({
      spec: nested(
        schema({
          jobTemplate: nested(
            schema({ metadata: nested(objectMetaSchema), spec: nested(jobSpecSchema) }),
          ),
        }),
      ),
    }),
  ],
  // autoscaling, policy
  ['autoscaling/v1/HorizontalPodAutoscaler', kind()],
  ['autoscaling/v2/HorizontalPodAutoscaler', statusConditions()],
  ['policy/v1/PodDisruptionBudget', statusConditions()],
  // rbac.authorization.k8s.io/v1: rules and subjects have no tag and are replaced.
  ['rbac.authorization.k8s.io/v1/Role', kind()],
  ['rbac.authorization.k8s.io/v1/ClusterRole', kind()],
  ['rbac.authorization.k8s.io/v1/RoleBinding', kind()],
  ['rbac.authorization.k8s.io/v1/ClusterRoleBinding', kind()],
  // others without tagged fields beyond metadata
  ['coordination.k8s.io/v1/Lease', kind()],
  ['events.k8s.io/v1/Event', kind()],
  ['discovery.k8s.io/v1/EndpointSlice', kind()],
  ['networking.k8s.io/v1/Ingress', kind()],
  ['networking.k8s.io/v1/IngressClass', kind()],
  ['networking.k8s.io/v1/NetworkPolicy', kind()],
  ['scheduling.k8s.io/v1/PriorityClass', kind()],
  ['node.k8s.io/v1/RuntimeClass', kind()],
  ['storage.k8s.io/v1/StorageClass', kind()],
  ['storage.k8s.io/v1/CSIDriver', kind()],
  ['storage.k8s.io/v1/CSINode', kind({ spec: nested(schema({ drivers: mergeBy('name') })) })],
  ['storage.k8s.io/v1/VolumeAttachment', kind()],
  ['certificates.k8s.io/v1/CertificateSigningRequest', kind()],
  ['apiextensions.k8s.io/v1/CustomResourceDefinition', kind()],
  ['apiregistration.k8s.io/v1/APIService', kind()],
  ['admissionregistration.k8s.io/v1/MutatingWebhookConfiguration', webhooks()],
  ['admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration', webhooks()],
];

/**
 * The strategic merge patch schemas of the built-in kinds, keyed `group/version/Kind`
 * (`v1/Pod`, `apps/v1/Deployment`).
 */
export const builtinStrategicSchemas: ReadonlyMap<string, StrategicSchema> = new Map(entries);

/**
 * The strategic merge patch schema of a built-in kind, or `undefined` for any other kind
 * (custom resources, aggregated APIs), which kube-apiserver does not accept strategic merge
 * patches for: answer those with {@link unsupportedStrategicMergePatch}.
 *
 * @param apiVersion as in an object: `v1`, `apps/v1`.
 */
export function strategicSchemaFor(apiVersion: string, kind: string): StrategicSchema | undefined {
  return builtinStrategicSchemas.get(`${apiVersion}/${kind}`);
}
