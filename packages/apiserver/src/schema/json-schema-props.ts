/**
 * The OpenAPI v3 schema subset that CustomResourceDefinitions use
 * (`apiextensions.k8s.io/v1` `JSONSchemaProps`), as it arrives in a CRD's
 * `spec.versions[].schema.openAPIV3Schema`. Every field is optional and nothing here is
 * trusted: the functions of this directory read schemas defensively and never throw on a
 * malformed one.
 */

/** One `x-kubernetes-validations` rule. CEL rules are carried but NOT evaluated by this module. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

/** A node of a CRD's structural schema. */
export interface JSONSchemaProps {
  /** `object`, `array`, `string`, `integer`, `number` or `boolean`; empty only where allowed (int-or-string, preserve-unknown-fields). */
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | (string & {});
  /** A string format (`date-time`, `uuid`, ...); kube-apiserver ignores formats it does not know. */
  format?: string;
  title?: string;
  description?: string;
  properties?: Record<string, JSONSchemaProps>;
  /** The schema of every array item (a single schema: arrays of schemas are not structural). */
  items?: JSONSchemaProps;
  required?: string[];
  enum?: unknown[];
  /** Applied to absent fields by `applyDefaults`; `null` means no default, as in kube-apiserver. */
  default?: unknown;
  example?: unknown;
  /** Whether `null` is a valid value. Without it, nulls are dropped or defaulted before validation. */
  nullable?: boolean;
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
  /** A schema for every key not in `properties` (maps), or a boolean. */
  additionalProperties?: boolean | JSONSchemaProps;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  /** The value may be an integer or a string (`intstr.IntOrString`); `type` stays empty. */
  'x-kubernetes-int-or-string'?: boolean;
  /** Unknown fields under this node survive pruning. */
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** The value is a Kubernetes object: its `apiVersion`, `kind` and `metadata` are implicit. */
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map' | (string & {});
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular' | (string & {});
  /** CEL rules. Not evaluated here: `validateCustomResource` reports nothing for them. */
  'x-kubernetes-validations'?: ValidationRule[];
}
