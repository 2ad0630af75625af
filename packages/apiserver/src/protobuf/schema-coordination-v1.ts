import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/coordination/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const coordinationV1Schemas: SchemaTable = {
  'coordination.Lease': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec coordination.LeaseSpec',
  },
  'coordination.LeaseSpec': {
    1: 'holderIdentity string keep',
    2: 'leaseDurationSeconds int32 keep',
    3: 'acquireTime MicroTime',
    4: 'renewTime MicroTime',
    5: 'leaseTransitions int32 keep',
    6: 'strategy string keep',
    7: 'preferredHolder string keep',
  },
};
