import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/scheduling/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const schedulingV1Schemas: SchemaTable = {
  'scheduling.PriorityClass': {
    1: 'metadata meta.ObjectMeta',
    2: 'value int32 keep',
    3: 'globalDefault bool',
    4: 'description string',
    5: 'preemptionPolicy string keep',
  },
};
