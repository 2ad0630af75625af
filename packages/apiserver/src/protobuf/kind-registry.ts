import { buildSchemas, type MessageSchema } from './message-schema.js';
import { appsV1Schemas } from './schema-apps-v1.js';
import { authenticationV1Schemas } from './schema-authentication-v1.js';
import { authorizationV1Schemas } from './schema-authorization-v1.js';
import { autoscalingV1Schemas } from './schema-autoscaling-v1.js';
import { batchV1Schemas } from './schema-batch-v1.js';
import { coordinationV1Schemas } from './schema-coordination-v1.js';
import { coreV1Schemas } from './schema-core-v1.js';
import { metaV1Schemas } from './schema-meta-v1.js';
import { networkingV1Schemas } from './schema-networking-v1.js';
import { policyV1Schemas } from './schema-policy-v1.js';
import { rbacV1Schemas } from './schema-rbac-v1.js';
import { schedulingV1Schemas } from './schema-scheduling-v1.js';

/** Top-level kinds by apiVersion: kind → root message name. */
const kindsByApiVersion: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  v1: {
    ConfigMap: 'core.ConfigMap',
    Secret: 'core.Secret',
    Namespace: 'core.Namespace',
    ServiceAccount: 'core.ServiceAccount',
    Service: 'core.Service',
    Pod: 'core.Pod',
    ResourceQuota: 'core.ResourceQuota',
  },
  'apps/v1': {
    Deployment: 'apps.Deployment',
    ReplicaSet: 'apps.ReplicaSet',
    StatefulSet: 'apps.StatefulSet',
    DaemonSet: 'apps.DaemonSet',
    ControllerRevision: 'apps.ControllerRevision',
  },
  'batch/v1': { Job: 'batch.Job', CronJob: 'batch.CronJob' },
  'rbac.authorization.k8s.io/v1': {
    Role: 'rbac.Role',
    ClusterRole: 'rbac.ClusterRole',
    RoleBinding: 'rbac.RoleBinding',
    ClusterRoleBinding: 'rbac.ClusterRoleBinding',
  },
  'authorization.k8s.io/v1': {
    SelfSubjectAccessReview: 'authorization.SelfSubjectAccessReview',
    SelfSubjectRulesReview: 'authorization.SelfSubjectRulesReview',
    SubjectAccessReview: 'authorization.SubjectAccessReview',
    LocalSubjectAccessReview: 'authorization.LocalSubjectAccessReview',
  },
  'authentication.k8s.io/v1': {
    TokenRequest: 'authentication.TokenRequest',
    SelfSubjectReview: 'authentication.SelfSubjectReview',
  },
  'autoscaling/v1': { HorizontalPodAutoscaler: 'autoscaling.HorizontalPodAutoscaler' },
  'policy/v1': { PodDisruptionBudget: 'policy.PodDisruptionBudget', Eviction: 'policy.Eviction' },
  'networking.k8s.io/v1': { Ingress: 'networking.Ingress' },
  'scheduling.k8s.io/v1': { PriorityClass: 'scheduling.PriorityClass' },
  'coordination.k8s.io/v1': { Lease: 'coordination.Lease' },
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

let schemas: ReadonlyMap<string, MessageSchema> | undefined;

/** All message schemas, parsed and cross-checked once on first use. */
export const messageSchemas = (): ReadonlyMap<string, MessageSchema> => {
  schemas ??= buildSchemas([
    metaV1Schemas,
    coreV1Schemas,
    appsV1Schemas,
    batchV1Schemas,
    rbacV1Schemas,
    authorizationV1Schemas,
    authenticationV1Schemas,
    autoscalingV1Schemas,
    policyV1Schemas,
    networkingV1Schemas,
    schedulingV1Schemas,
    coordinationV1Schemas,
  ]);
  return schemas;
};

/**
 * The root message of a top-level kind, or undefined when the decoder does not know the
 * apiVersion/kind pair.
 */
export const rootMessageOf = (apiVersion: string, kind: string): MessageSchema | undefined => {
  const name =
    kind === 'DeleteOptions' && deleteOptionsApiVersions.includes(apiVersion)
      ? 'meta.DeleteOptions'
      : ownValue(ownValue(kindsByApiVersion, apiVersion), kind);
  return name === undefined ? undefined : messageSchemas().get(name);
};

/** Every apiVersion/kind pair the decoder knows, for messages and tests. */
export const knownKinds = (): { apiVersion: string; kind: string }[] => [
  ...Object.entries(kindsByApiVersion).flatMap(([apiVersion, kinds]) =>
    Object.keys(kinds).map((kind) => ({ apiVersion, kind })),
  ),
  ...deleteOptionsApiVersions.map((apiVersion) => ({ apiVersion, kind: 'DeleteOptions' })),
];
