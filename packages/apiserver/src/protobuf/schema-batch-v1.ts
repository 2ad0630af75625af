import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/batch/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const batchV1Schemas: SchemaTable = {
  'batch.Job': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec batch.JobSpec',
    3: 'status batch.JobStatus',
  },
  'batch.CronJob': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec batch.CronJobSpec',
    3: 'status batch.CronJobStatus',
  },
  'batch.JobSpec': {
    1: 'parallelism int32 keep',
    2: 'completions int32 keep',
    3: 'activeDeadlineSeconds int64 keep',
    4: 'selector meta.LabelSelector',
    5: 'manualSelector bool keep',
    6: 'template core.PodTemplateSpec',
    7: 'backoffLimit int32 keep',
    8: 'ttlSecondsAfterFinished int32 keep',
    9: 'completionMode string keep',
    10: 'suspend bool keep',
    11: 'podFailurePolicy batch.PodFailurePolicy',
    12: 'backoffLimitPerIndex int32 keep',
    13: 'maxFailedIndexes int32 keep',
    14: 'podReplacementPolicy string keep',
    15: 'managedBy string keep',
    16: 'successPolicy batch.SuccessPolicy',
  },
  'batch.JobStatus': {
    1: 'conditions []batch.JobCondition',
    2: 'startTime Time',
    3: 'completionTime Time',
    4: 'active int32',
    5: 'succeeded int32',
    6: 'failed int32',
    7: 'completedIndexes string',
    8: 'uncountedTerminatedPods batch.UncountedTerminatedPods',
    9: 'ready int32 keep',
    10: 'failedIndexes string keep',
    11: 'terminating int32 keep',
  },
  'batch.CronJobSpec': {
    1: 'schedule string keep',
    2: 'startingDeadlineSeconds int64 keep',
    3: 'concurrencyPolicy string',
    4: 'suspend bool keep',
    5: 'jobTemplate batch.JobTemplateSpec',
    6: 'successfulJobsHistoryLimit int32 keep',
    7: 'failedJobsHistoryLimit int32 keep',
    8: 'timeZone string keep',
  },
  'batch.CronJobStatus': {
    1: 'active []core.ObjectReference',
    4: 'lastScheduleTime Time',
    5: 'lastSuccessfulTime Time',
  },
  'batch.PodFailurePolicy': {
    1: 'rules []batch.PodFailurePolicyRule',
  },
  'batch.SuccessPolicy': {
    1: 'rules []batch.SuccessPolicyRule',
  },
  'batch.JobCondition': {
    1: 'type string keep',
    2: 'status string keep',
    3: 'lastProbeTime Time',
    4: 'lastTransitionTime Time',
    5: 'reason string',
    6: 'message string',
  },
  'batch.UncountedTerminatedPods': {
    1: 'succeeded []string',
    2: 'failed []string',
  },
  'batch.JobTemplateSpec': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec batch.JobSpec',
  },
  'batch.PodFailurePolicyRule': {
    1: 'action string keep',
    2: 'onExitCodes batch.PodFailurePolicyOnExitCodesRequirement',
    3: 'onPodConditions []batch.PodFailurePolicyOnPodConditionsPattern',
  },
  'batch.SuccessPolicyRule': {
    1: 'succeededIndexes string keep',
    2: 'succeededCount int32 keep',
  },
  'batch.PodFailurePolicyOnExitCodesRequirement': {
    1: 'containerName string keep',
    2: 'operator string keep',
    3: 'values []int32',
  },
  'batch.PodFailurePolicyOnPodConditionsPattern': {
    1: 'type string keep',
    2: 'status string keep',
  },
};
