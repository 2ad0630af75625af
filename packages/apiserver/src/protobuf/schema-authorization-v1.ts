import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/authorization/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const authorizationV1Schemas: SchemaTable = {
  'authorization.SelfSubjectAccessReview': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec authorization.SelfSubjectAccessReviewSpec',
    3: 'status authorization.SubjectAccessReviewStatus',
  },
  'authorization.SelfSubjectRulesReview': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec authorization.SelfSubjectRulesReviewSpec',
    3: 'status authorization.SubjectRulesReviewStatus',
  },
  'authorization.SubjectAccessReview': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec authorization.SubjectAccessReviewSpec',
    3: 'status authorization.SubjectAccessReviewStatus',
  },
  'authorization.LocalSubjectAccessReview': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec authorization.SubjectAccessReviewSpec',
    3: 'status authorization.SubjectAccessReviewStatus',
  },
  'authorization.SelfSubjectAccessReviewSpec': {
    1: 'resourceAttributes authorization.ResourceAttributes',
    2: 'nonResourceAttributes authorization.NonResourceAttributes',
  },
  'authorization.SubjectAccessReviewStatus': {
    1: 'allowed bool keep',
    2: 'reason string',
    3: 'evaluationError string',
    4: 'denied bool',
  },
  'authorization.SelfSubjectRulesReviewSpec': {
    1: 'namespace string',
  },
  'authorization.SubjectRulesReviewStatus': {
    1: 'resourceRules []authorization.ResourceRule',
    2: 'nonResourceRules []authorization.NonResourceRule',
    3: 'incomplete bool keep',
    4: 'evaluationError string',
  },
  'authorization.SubjectAccessReviewSpec': {
    1: 'resourceAttributes authorization.ResourceAttributes',
    2: 'nonResourceAttributes authorization.NonResourceAttributes',
    3: 'user string',
    4: 'groups []string',
    5: 'extra map:StringList',
    6: 'uid string',
  },
  'authorization.ResourceAttributes': {
    1: 'namespace string',
    2: 'verb string',
    3: 'group string',
    4: 'version string',
    5: 'resource string',
    6: 'subresource string',
    7: 'name string',
    8: 'fieldSelector authorization.FieldSelectorAttributes',
    9: 'labelSelector authorization.LabelSelectorAttributes',
  },
  'authorization.NonResourceAttributes': {
    1: 'path string',
    2: 'verb string',
  },
  'authorization.ResourceRule': {
    1: 'verbs []string',
    2: 'apiGroups []string',
    3: 'resources []string',
    4: 'resourceNames []string',
  },
  'authorization.NonResourceRule': {
    1: 'verbs []string',
    2: 'nonResourceURLs []string',
  },
  'authorization.FieldSelectorAttributes': {
    1: 'rawSelector string',
    2: 'requirements []meta.FieldSelectorRequirement',
  },
  'authorization.LabelSelectorAttributes': {
    1: 'rawSelector string',
    2: 'requirements []meta.LabelSelectorRequirement',
  },
};
