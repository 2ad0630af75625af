import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/rbac/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const rbacV1Schemas: SchemaTable = {
  'rbac.Role': {
    1: 'metadata meta.ObjectMeta',
    2: 'rules []rbac.PolicyRule',
  },
  'rbac.ClusterRole': {
    1: 'metadata meta.ObjectMeta',
    2: 'rules []rbac.PolicyRule',
    3: 'aggregationRule rbac.AggregationRule',
  },
  'rbac.RoleBinding': {
    1: 'metadata meta.ObjectMeta',
    2: 'subjects []rbac.Subject',
    3: 'roleRef rbac.RoleRef',
  },
  'rbac.ClusterRoleBinding': {
    1: 'metadata meta.ObjectMeta',
    2: 'subjects []rbac.Subject',
    3: 'roleRef rbac.RoleRef',
  },
  'rbac.PolicyRule': {
    1: 'verbs []string',
    2: 'apiGroups []string',
    3: 'resources []string',
    4: 'resourceNames []string',
    5: 'nonResourceURLs []string',
  },
  'rbac.AggregationRule': {
    1: 'clusterRoleSelectors []meta.LabelSelector',
  },
  'rbac.Subject': {
    1: 'kind string keep',
    2: 'apiGroup string',
    3: 'name string keep',
    4: 'namespace string',
  },
  'rbac.RoleRef': {
    1: 'apiGroup string keep',
    2: 'kind string keep',
    3: 'name string keep',
  },
};
