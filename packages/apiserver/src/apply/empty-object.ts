/**
 * What a built-in kind's zero value holds (its Go struct's non-pointer struct fields), the
 * "live object" kube-apiserver compares a new object with when recording who created its
 * fields: `spec.strategy` of a Deployment exists before anyone sets it, so its creator owns
 * `spec.strategy.type` but not `spec.strategy` itself, while `spec.strategy.rollingUpdate`
 * (a pointer) is owned as a whole too (`.` in fieldsV1). Custom resources start empty.
 */

/** `containers` has no `omitempty`: the zero PodSpec holds `containers: null`. */
const podSpec = () => ({ containers: null });
const podTemplate = () => ({ metadata: {}, spec: podSpec() });

const zeroValues: Readonly<Record<string, () => Record<string, unknown>>> = {
  'v1/Pod': () => ({ spec: podSpec(), status: {} }),
  'v1/PodTemplate': () => ({ template: podTemplate() }),
  'v1/ReplicationController': () => ({ spec: {}, status: {} }),
  'v1/Service': () => ({ spec: {}, status: { loadBalancer: {} } }),
  'v1/Namespace': () => ({ spec: {}, status: {} }),
  'v1/Node': () => ({
    spec: {},
    status: { daemonEndpoints: { kubeletEndpoint: {} }, nodeInfo: {} },
  }),
  'v1/PersistentVolumeClaim': () => ({ spec: { resources: {} }, status: {} }),
  'v1/PersistentVolume': () => ({ spec: {}, status: {} }),
  'v1/ResourceQuota': () => ({ spec: {}, status: {} }),
  'v1/LimitRange': () => ({ spec: {} }),
  'apps/v1/Deployment': () => ({ spec: { template: podTemplate(), strategy: {} }, status: {} }),
  'apps/v1/ReplicaSet': () => ({ spec: { template: podTemplate() }, status: {} }),
  'apps/v1/StatefulSet': () => ({
    spec: { template: podTemplate(), updateStrategy: {} },
    status: {},
  }),
  'apps/v1/DaemonSet': () => ({
    spec: { template: podTemplate(), updateStrategy: {} },
    status: {},
  }),
  'batch/v1/Job': () => ({ spec: { template: podTemplate() }, status: {} }),
  'batch/v1/CronJob': () => ({
    spec: { jobTemplate: { metadata: {}, spec: { template: podTemplate() } } },
    status: {},
  }),
  'autoscaling/v2/HorizontalPodAutoscaler': () => ({ spec: { scaleTargetRef: {} }, status: {} }),
  'autoscaling/v1/HorizontalPodAutoscaler': () => ({ spec: { scaleTargetRef: {} }, status: {} }),
  'policy/v1/PodDisruptionBudget': () => ({ spec: {}, status: {} }),
  'networking.k8s.io/v1/Ingress': () => ({ spec: {}, status: { loadBalancer: {} } }),
  'networking.k8s.io/v1/NetworkPolicy': () => ({ spec: { podSelector: {} } }),
  'coordination.k8s.io/v1/Lease': () => ({ spec: {} }),
  'rbac.authorization.k8s.io/v1/RoleBinding': () => ({ roleRef: {} }),
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': () => ({ roleRef: {} }),
  'apiextensions.k8s.io/v1/CustomResourceDefinition': () => ({
    spec: { names: {} },
    status: { acceptedNames: {} },
  }),
};

/**
 * The zero value of `apiVersion` `kind` without `apiVersion`, `kind` and `metadata` (which
 * managed fields never record); `{}` for kinds not listed (custom resources included).
 */
export function emptyObjectOf(apiVersion: string, kind: string): Record<string, unknown> {
  return zeroValues[`${apiVersion}/${kind}`]?.() ?? {};
}
