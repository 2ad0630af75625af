import type { SchemaTable } from './message-schema.js';

/**
 * Field tables of `k8s.io/api/authentication/v1/generated.proto` (Kubernetes 1.32) for the messages the decoder
 * reaches, in the notation of {@link SchemaTable}. JSON names and the `keep` flag follow the Go
 * struct tags (`keep`: the Go field is a pointer, or its json tag has no `omitempty`).
 */
export const authenticationV1Schemas: SchemaTable = {
  'authentication.TokenRequest': {
    1: 'metadata meta.ObjectMeta',
    2: 'spec authentication.TokenRequestSpec',
    3: 'status authentication.TokenRequestStatus',
  },
  'authentication.TokenRequestSpec': {
    1: 'audiences []string',
    3: 'boundObjectRef authentication.BoundObjectReference',
    4: 'expirationSeconds int64 keep',
  },
  'authentication.TokenRequestStatus': {
    1: 'token string keep',
    2: 'expirationTimestamp Time',
  },
  'authentication.SelfSubjectReview': {
    1: 'metadata meta.ObjectMeta',
    2: 'status authentication.SelfSubjectReviewStatus',
  },
  'authentication.SelfSubjectReviewStatus': {
    1: 'userInfo authentication.UserInfo',
  },
  'authentication.UserInfo': {
    1: 'username string',
    2: 'uid string',
    3: 'groups []string',
  },
  'authentication.BoundObjectReference': {
    1: 'kind string',
    2: 'apiVersion string',
    3: 'name string',
    4: 'uid string',
  },
};
