/**
 * The `apiextensions.k8s.io/v1` wire types: the `CustomResourceDefinition` object (as
 * `defineCustomResource` of `@ops/core` renders it) and its OpenAPI v3 schema. Plain JSON, as
 * it is sent to the API server or written to YAML.
 */

import type { KubernetesObject, ObjectMeta } from './kubernetes-object.js';

/**
 * One `x-kubernetes-validations[]` rule (a CEL expression), which the local API server
 * compiles when the CRD is written and evaluates on every write of the custom resource.
 */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?:
    | 'FieldValueInvalid'
    | 'FieldValueForbidden'
    | 'FieldValueRequired'
    | 'FieldValueDuplicate'
    | (string & {});
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * One node of a CustomResourceDefinition's OpenAPI v3 schema (`JSONSchemaProps`), as it
 * travels in `spec.versions[].schema.openAPIV3Schema`. Every field is optional: a reader of a
 * schema from elsewhere must not trust it (the local API server validates it first), while
 * `toStructuralSchema` of `@ops/core` emits only structural schemas.
 */
export interface JSONSchemaProps {
  /** Empty only where allowed (int-or-string, preserve-unknown-fields). */
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | (string & {});
  /** A string format (`date-time`, `uuid`, ...); kube-apiserver ignores formats it does not know. */
  format?: string;
  title?: string;
  description?: string;
  /** Applied to absent fields; `null` means no default, as in kube-apiserver. */
  default?: unknown;
  example?: unknown;
  /** Whether `null` is a valid value. Without it, nulls are dropped or defaulted before validation. */
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, JSONSchemaProps>;
  required?: string[];
  /** A schema for every key not in `properties` (maps), or a boolean. */
  additionalProperties?: boolean | JSONSchemaProps;
  /** The schema of every array item (a single schema: arrays of schemas are not structural). */
  items?: JSONSchemaProps;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  minimum?: number;
  maximum?: number;
  /** OpenAPI v3.0 booleans: the bound itself is excluded. */
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  /** An RE2 pattern, matched unanchored against string values. */
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  externalDocs?: { description?: string; url?: string };
  /** The value may be an integer or a string (`intstr.IntOrString`); `type` stays empty. */
  'x-kubernetes-int-or-string'?: boolean;
  /** Unknown fields under this node survive pruning. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** The value is a Kubernetes object: its `apiVersion`, `kind` and `metadata` are implicit. */
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map' | (string & {});
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular' | (string & {});
  'x-kubernetes-validations'?: ValidationRule[];
}

/** The type of a printer column: how `kubectl get` formats the value. */
export type PrinterColumnType = 'integer' | 'number' | 'string' | 'boolean' | 'date';

/** An additional printer column (`additionalPrinterColumns[]`) shown by `kubectl get`. */
export interface PrinterColumn {
  /** The column header, e.g. `Ready`. */
  name: string;
  type: PrinterColumnType;
  /** A simple JSONPath into the object, starting with `.`: `.status.ready`. */
  jsonPath: string;
  description?: string;
  /** 0 (default) shows the column always; higher only with `kubectl get -o wide`. */
  priority?: number;
  /** `int32`, `int64`, `float`, `double`, `byte`, `date`, `date-time` or `password`. */
  format?: string;
}

/** The scale subresource (`/scale`), for `kubectl scale` and the HorizontalPodAutoscaler. */
export interface ScaleSubresource {
  /** JSONPath of the desired replicas in the object, under `.spec`: `.spec.replicas`. */
  specReplicasPath: string;
  /** JSONPath of the observed replicas, under `.status`: `.status.replicas`. */
  statusReplicasPath: string;
  /** JSONPath of the label selector (string form) under `.status`, for the HPA. */
  labelSelectorPath?: string;
}

/** The subresources of one version as rendered (`status: {}` enables `/status`). */
export interface CustomResourceSubresources {
  status?: Record<string, never>;
  scale?: ScaleSubresource;
}

/** A field usable in field selectors (`selectableFields[]`, Kubernetes >= 1.30). */
export interface SelectableField {
  /** A simple JSONPath to a string, integer or boolean field: `.spec.color`. */
  jsonPath: string;
}

/** One version of a rendered CustomResourceDefinition. */
export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema: { openAPIV3Schema: JSONSchemaProps };
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: SelectableField[];
}

/** Where the API server sends a CRD's ConversionReviews: a Service in the cluster, or a URL. */
export interface ConversionWebhookClientConfig {
  /** `https://host:port/path`, for a webhook outside the cluster (a test's process). */
  url?: string;
  /** The Service in front of the webhook server; the API server calls port `port` (443). */
  service?: { name: string; namespace: string; path?: string; port?: number };
  /** Base64 PEM of the CAs that sign the serving certificate; injected after rendering. */
  caBundle?: string;
}

/**
 * `spec.conversion` of a CustomResourceDefinition: `None` (the API server only rewrites
 * `apiVersion`; the schemas must then be identical) or `Webhook` (the API server POSTs a
 * `ConversionReview` to `webhook.clientConfig` for every object it reads or writes in a
 * version other than the stored one).
 */
export interface CustomResourceConversion {
  strategy: 'None' | 'Webhook';
  /** Required with `Webhook`. */
  webhook?: {
    clientConfig?: ConversionWebhookClientConfig;
    /** The ConversionReview versions the webhook understands, preferred first: `['v1']`. */
    conversionReviewVersions: string[];
  };
}

/**
 * An `apiextensions.k8s.io/v1` `CustomResourceDefinition`, ready to apply. It is a
 * {@link KubernetesObject}, so it goes wherever objects do (a list of manifests, a client's
 * `create`, envtest's `crds`).
 */
export interface CustomResourceDefinitionObject extends KubernetesObject {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: ObjectMeta & { name: string };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames?: string[];
      categories?: string[];
    };
    scope: 'Namespaced' | 'Cluster';
    versions: CustomResourceDefinitionVersion[];
    conversion?: CustomResourceConversion;
  };
}
