import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/autoscaling/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const autoscalingV1Schemas: SchemaTable = {
  'autoscaling.HorizontalPodAutoscaler': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec autoscaling.HorizontalPodAutoscalerSpec',
    3: 'status autoscaling.HorizontalPodAutoscalerStatus',
  },
  'autoscaling.HorizontalPodAutoscalerSpec': {
    1: 'scaleTargetRef autoscaling.CrossVersionObjectReference',
    2: 'minReplicas int32 keep',
    3: 'maxReplicas int32 keep',
    4: 'targetCPUUtilizationPercentage int32 keep',
  },
  'autoscaling.HorizontalPodAutoscalerStatus': {
    1: 'observedGeneration int64 keep',
    2: 'lastScaleTime Time',
    3: 'currentReplicas int32 keep',
    4: 'desiredReplicas int32 keep',
    5: 'currentCPUUtilizationPercentage int32 keep',
  },
  'autoscaling.CrossVersionObjectReference': {
    1: 'kind string keep',
    2: 'name string keep',
    3: 'apiVersion string',
  },
};
