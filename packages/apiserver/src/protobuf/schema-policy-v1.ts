import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/policy/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const policyV1Schemas: SchemaTable = {
  'policy.PodDisruptionBudget': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec policy.PodDisruptionBudgetSpec',
    3: 'status policy.PodDisruptionBudgetStatus',
  },
  'policy.Eviction': {
    1: 'metadata meta.ObjectMeta',
    2: 'deleteOptions meta.DeleteOptions',
  },
  'policy.PodDisruptionBudgetSpec': {
    1: 'minAvailable IntOrString',
    2: 'selector meta.LabelSelector',
    3: 'maxUnavailable IntOrString',
    4: 'unhealthyPodEvictionPolicy string keep',
  },
  'policy.PodDisruptionBudgetStatus': {
    1: 'observedGeneration int64',
    2: 'disruptedPods map:Time',
    3: 'disruptionsAllowed int32 keep',
    4: 'currentHealthy int32 keep',
    5: 'desiredHealthy int32 keep',
    6: 'expectedPods int32 keep',
    7: 'conditions []meta.Condition',
  },
};
