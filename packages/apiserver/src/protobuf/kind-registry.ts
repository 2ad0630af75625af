import type protobuf from 'protobufjs/light.js';
import { messageType } from './kubernetes-protos.js';

const api = 'k8s.io.api';

/** Top-level kinds by apiVersion: kind → root message (fully qualified protobuf name). */
const kindsByApiVersion: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  v1: {
    ConfigMap: `${api}.core.v1.ConfigMap`,
    Secret: `${api}.core.v1.Secret`,
    Namespace: `${api}.core.v1.Namespace`,
    ServiceAccount: `${api}.core.v1.ServiceAccount`,
    Service: `${api}.core.v1.Service`,
    Pod: `${api}.core.v1.Pod`,
    ResourceQuota: `${api}.core.v1.ResourceQuota`,
  },
  'apps/v1': {
    Deployment: `${api}.apps.v1.Deployment`,
    ReplicaSet: `${api}.apps.v1.ReplicaSet`,
    StatefulSet: `${api}.apps.v1.StatefulSet`,
    DaemonSet: `${api}.apps.v1.DaemonSet`,
    ControllerRevision: `${api}.apps.v1.ControllerRevision`,
  },
  'batch/v1': { Job: `${api}.batch.v1.Job`, CronJob: `${api}.batch.v1.CronJob` },
  'rbac.authorization.k8s.io/v1': {
    Role: `${api}.rbac.v1.Role`,
    ClusterRole: `${api}.rbac.v1.ClusterRole`,
    RoleBinding: `${api}.rbac.v1.RoleBinding`,
    ClusterRoleBinding: `${api}.rbac.v1.ClusterRoleBinding`,
  },
  'authorization.k8s.io/v1': {
    SelfSubjectAccessReview: `${api}.authorization.v1.SelfSubjectAccessReview`,
    SelfSubjectRulesReview: `${api}.authorization.v1.SelfSubjectRulesReview`,
    SubjectAccessReview: `${api}.authorization.v1.SubjectAccessReview`,
    LocalSubjectAccessReview: `${api}.authorization.v1.LocalSubjectAccessReview`,
  },
  'authentication.k8s.io/v1': {
    TokenRequest: `${api}.authentication.v1.TokenRequest`,
    SelfSubjectReview: `${api}.authentication.v1.SelfSubjectReview`,
  },
  'autoscaling/v1': { HorizontalPodAutoscaler: `${api}.autoscaling.v1.HorizontalPodAutoscaler` },
  'policy/v1': {
    PodDisruptionBudget: `${api}.policy.v1.PodDisruptionBudget`,
    Eviction: `${api}.policy.v1.Eviction`,
  },
  'networking.k8s.io/v1': { Ingress: `${api}.networking.v1.Ingress` },
  'scheduling.k8s.io/v1': { PriorityClass: `${api}.scheduling.v1.PriorityClass` },
  'coordination.k8s.io/v1': { Lease: `${api}.coordination.v1.Lease` },
};

/**
 * apiVersions under which a typed client may send `DeleteOptions` (it is registered in every
 * group version, and in `meta.k8s.io/v1`).
 */
const deleteOptionsApiVersions = ['meta.k8s.io/v1', ...Object.keys(kindsByApiVersion)];

const ownValue = <T>(
  record: Readonly<Record<string, T>> | undefined,
  key: string,
): T | undefined => (record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined);

/**
 * The root message of a top-level kind, or undefined when the decoder does not know the
 * apiVersion/kind pair.
 */
export const rootMessageOf = (apiVersion: string, kind: string): protobuf.Type | undefined => {
  const name =
    kind === 'DeleteOptions' && deleteOptionsApiVersions.includes(apiVersion)
      ? 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions'
      : ownValue(ownValue(kindsByApiVersion, apiVersion), kind);
  return name === undefined ? undefined : messageType(name);
};

/** Every apiVersion/kind pair the decoder knows, for messages and tests. */
export const knownKinds = (): { apiVersion: string; kind: string }[] => [
  ...Object.entries(kindsByApiVersion).flatMap(([apiVersion, kinds]) =>
    Object.keys(kinds).map((kind) => ({ apiVersion, kind })),
  ),
  ...deleteOptionsApiVersions.map((apiVersion) => ({ apiVersion, kind: 'DeleteOptions' })),
];
