import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/apps/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const appsV1Schemas: SchemaTable = {
  'apps.Deployment': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec apps.DeploymentSpec',
    3: 'status apps.DeploymentStatus',
  },
  'apps.ReplicaSet': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec apps.ReplicaSetSpec',
    3: 'status apps.ReplicaSetStatus',
  },
  'apps.StatefulSet': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec apps.StatefulSetSpec',
    3: 'status apps.StatefulSetStatus',
  },
  'apps.DaemonSet': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec apps.DaemonSetSpec',
    3: 'status apps.DaemonSetStatus',
  },
  'apps.ControllerRevision': {
    1: 'metadata meta.ObjectMeta',
    2: 'data RawExtension',
    3: 'revision int64 keep',
  },
  'apps.DeploymentSpec': {
    1: 'replicas int32 keep',
    2: 'selector meta.LabelSelector',
    3: 'template core.PodTemplateSpec',
    4: 'strategy apps.DeploymentStrategy',
    5: 'minReadySeconds int32',
    6: 'revisionHistoryLimit int32 keep',
    7: 'paused bool',
    9: 'progressDeadlineSeconds int32 keep',
  },
  'apps.DeploymentStatus': {
    1: 'observedGeneration int64',
    2: 'replicas int32',
    3: 'updatedReplicas int32',
    4: 'availableReplicas int32',
    5: 'unavailableReplicas int32',
    6: 'conditions []apps.DeploymentCondition',
    7: 'readyReplicas int32',
    8: 'collisionCount int32 keep',
  },
  'apps.ReplicaSetSpec': {
    1: 'replicas int32 keep',
    2: 'selector meta.LabelSelector',
    3: 'template core.PodTemplateSpec',
    4: 'minReadySeconds int32',
  },
  'apps.ReplicaSetStatus': {
    1: 'replicas int32 keep',
    2: 'fullyLabeledReplicas int32',
    3: 'observedGeneration int64',
    4: 'readyReplicas int32',
    5: 'availableReplicas int32',
    6: 'conditions []apps.ReplicaSetCondition',
  },
  'apps.StatefulSetSpec': {
    1: 'replicas int32 keep',
    2: 'selector meta.LabelSelector',
    3: 'template core.PodTemplateSpec',
    4: 'volumeClaimTemplates []core.PersistentVolumeClaim',
    5: 'serviceName string keep',
    6: 'podManagementPolicy string',
    7: 'updateStrategy apps.StatefulSetUpdateStrategy',
    8: 'revisionHistoryLimit int32 keep',
    9: 'minReadySeconds int32',
    10: 'persistentVolumeClaimRetentionPolicy apps.StatefulSetPersistentVolumeClaimRetentionPolicy',
    11: 'ordinals apps.StatefulSetOrdinals',
  },
  'apps.StatefulSetStatus': {
    1: 'observedGeneration int64',
    2: 'replicas int32 keep',
    3: 'readyReplicas int32',
    4: 'currentReplicas int32',
    5: 'updatedReplicas int32',
    6: 'currentRevision string',
    7: 'updateRevision string',
    9: 'collisionCount int32 keep',
    10: 'conditions []apps.StatefulSetCondition',
    11: 'availableReplicas int32 keep',
  },
  'apps.DaemonSetSpec': {
    1: 'selector meta.LabelSelector',
    2: 'template core.PodTemplateSpec',
    3: 'updateStrategy apps.DaemonSetUpdateStrategy',
    4: 'minReadySeconds int32',
    6: 'revisionHistoryLimit int32 keep',
  },
  'apps.DaemonSetStatus': {
    1: 'currentNumberScheduled int32 keep',
    2: 'numberMisscheduled int32 keep',
    3: 'desiredNumberScheduled int32 keep',
    4: 'numberReady int32 keep',
    5: 'observedGeneration int64',
    6: 'updatedNumberScheduled int32',
    7: 'numberAvailable int32',
    8: 'numberUnavailable int32',
    9: 'collisionCount int32 keep',
    10: 'conditions []apps.DaemonSetCondition',
  },
  'apps.DeploymentStrategy': {
    1: 'type string',
    2: 'rollingUpdate apps.RollingUpdateDeployment',
  },
  'apps.DeploymentCondition': {
    1: 'type string keep',
    2: 'status string keep',
    4: 'reason string',
    5: 'message string',
    6: 'lastUpdateTime Time',
    7: 'lastTransitionTime Time',
  },
  'apps.ReplicaSetCondition': {
    1: 'type string keep',
    2: 'status string keep',
    3: 'lastTransitionTime Time',
    4: 'reason string',
    5: 'message string',
  },
  'apps.StatefulSetUpdateStrategy': {
    1: 'type string',
    2: 'rollingUpdate apps.RollingUpdateStatefulSetStrategy',
  },
  'apps.StatefulSetPersistentVolumeClaimRetentionPolicy': {
    1: 'whenDeleted string',
    2: 'whenScaled string',
  },
  'apps.StatefulSetOrdinals': {
    1: 'start int32 keep',
  },
  'apps.StatefulSetCondition': {
    1: 'type string keep',
    2: 'status string keep',
    3: 'lastTransitionTime Time',
    4: 'reason string',
    5: 'message string',
  },
  'apps.DaemonSetUpdateStrategy': {
    1: 'type string',
    2: 'rollingUpdate apps.RollingUpdateDaemonSet',
  },
  'apps.DaemonSetCondition': {
    1: 'type string keep',
    2: 'status string keep',
    3: 'lastTransitionTime Time',
    4: 'reason string',
    5: 'message string',
  },
  'apps.RollingUpdateDeployment': {
    1: 'maxUnavailable IntOrString',
    2: 'maxSurge IntOrString',
  },
  'apps.RollingUpdateStatefulSetStrategy': {
    1: 'partition int32 keep',
    2: 'maxUnavailable IntOrString',
  },
  'apps.RollingUpdateDaemonSet': {
    1: 'maxUnavailable IntOrString',
    2: 'maxSurge IntOrString',
  },
};
