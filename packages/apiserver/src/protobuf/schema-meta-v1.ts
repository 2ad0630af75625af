import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const metaV1Schemas: SchemaTable = {
  'meta.DeleteOptions': {
    1: 'gracePeriodSeconds int64 keep',
    2: 'preconditions meta.Preconditions',
    3: 'orphanDependents bool keep',
    4: 'propagationPolicy string keep',
    5: 'dryRun []string',
    6: 'ignoreStoreReadErrorWithClusterBreakingPotential bool keep',
  },
  'meta.ObjectMeta': {
    1: 'name string',
    2: 'generateName string',
    3: 'namespace string',
    4: 'selfLink string',
    5: 'uid string',
    6: 'resourceVersion string',
    7: 'generation int64',
    8: 'creationTimestamp Time',
    9: 'deletionTimestamp Time',
    10: 'deletionGracePeriodSeconds int64 keep',
    11: 'labels map:string',
    12: 'annotations map:string',
    13: 'ownerReferences []meta.OwnerReference',
    14: 'finalizers []string',
    17: 'managedFields []meta.ManagedFieldsEntry',
  },
  'meta.Preconditions': {
    1: 'uid string keep',
    2: 'resourceVersion string keep',
  },
  'meta.OwnerReference': {
    1: 'kind string keep',
    3: 'name string keep',
    4: 'uid string keep',
    5: 'apiVersion string keep',
    6: 'controller bool keep',
    7: 'blockOwnerDeletion bool keep',
  },
  'meta.ManagedFieldsEntry': {
    1: 'manager string',
    2: 'operation string',
    3: 'apiVersion string',
    4: 'time Time',
    6: 'fieldsType string',
    7: 'fieldsV1 FieldsV1',
    8: 'subresource string',
  },
  'meta.Condition': {
    1: 'type string keep',
    2: 'status string keep',
    3: 'observedGeneration int64',
    4: 'lastTransitionTime Time',
    5: 'reason string keep',
    6: 'message string keep',
  },
  'meta.LabelSelector': {
    1: 'matchLabels map:string',
    2: 'matchExpressions []meta.LabelSelectorRequirement',
  },
  'meta.LabelSelectorRequirement': {
    1: 'key string keep',
    2: 'operator string keep',
    3: 'values []string',
  },
  'meta.FieldSelectorRequirement': {
    1: 'key string keep',
    2: 'operator string keep',
    3: 'values []string',
  },
};
