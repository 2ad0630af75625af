/**
 * The `apiextensions.k8s.io/v1` wire types that {@link defineCustomResource} renders: the
 * `CustomResourceDefinition` object and its OpenAPI v3 (structural) schema. Plain JSON, as
 * it is sent to the API server or written to YAML.
 */

/** A CEL validation rule (`x-kubernetes-validations[]`). */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?:
    | 'FieldValueInvalid'
    | 'FieldValueForbidden'
    | 'FieldValueRequired'
    | 'FieldValueDuplicate';
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/**
 * One node of a structural schema (`JSONSchemaProps`), limited to what
 * {@link toStructuralSchema} emits.
 */
export interface JSONSchemaProps {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  title?: string;
  description?: string;
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, JSONSchemaProps>;
  required?: string[];
  additionalProperties?: JSONSchemaProps;
  items?: JSONSchemaProps;
  anyOf?: JSONSchemaProps[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  externalDocs?: { description?: string; url?: string };
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-preserve-unknown-fields'?: true;
  'x-kubernetes-embedded-resource'?: true;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
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

/** An `apiextensions.k8s.io/v1` `CustomResourceDefinition`, ready to apply. */
export interface CustomResourceDefinitionObject {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; annotations?: Record<string, string> };
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
  };
}
