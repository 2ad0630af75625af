export type {
  AggregationRule,
  ClusterRole,
  CustomResourceDefinitionObject,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
  PolicyRule,
  PrinterColumn,
  PrinterColumnType,
  ScaleSubresource,
  SelectableField,
  ValidationRule,
} from '@ops/api';
export { ConversionError } from '../errors/conversion-error.js';
export { CustomResourceDefinitionError } from '../errors/custom-resource-definition-error.js';
export { PolicyRuleError } from '../errors/policy-rule-error.js';
export { StructuralSchemaError } from '../errors/structural-schema-error.js';
export { clusterRoleFromRules, mergePolicyRules } from './cluster-role.js';
export {
  type Conversion,
  type ConversionDeclaration,
  type CustomResourceSpokeVersion,
  defineConversion,
  describeObject,
  isConversionDeclaration,
  type SpokeConversion,
  type SpokeConversions,
} from './conversion.js';
export {
  type ConversionData,
  conversionData,
  type DeepPartial,
  type HubData,
  type RestoredHubData,
} from './conversion-data.js';
export {
  type CustomResource,
  type CustomResourceDefinition,
  type CustomResourceOptions,
  type CustomResourceStorageVersion,
  type CustomResourceValidationIssue,
  type CustomResourceVersionName,
  type CustomResourceVersionOptions,
  conversionWebhookPath,
  defineCustomResource,
  isCustomResourceDefinition,
} from './custom-resource.js';
export {
  EmbeddedResource,
  embeddedResourceKeyword,
  IntOrString,
  intOrStringKeyword,
  PreserveUnknownFields,
  preserveUnknownFieldsKeyword,
  type TEmbeddedResource,
  type TIntOrString,
  type TUnknownObject,
} from './kubernetes-schema-types.js';
export { type OwnerResource, ownerReferencePermissions } from './owner-reference-permissions.js';
export {
  customResourcePermissions,
  type NonResourcePermission,
  permission,
  type ResourcePermission,
  rbacRules,
  type Verb,
  validatePolicyRule,
} from './policy-rule.js';
export {
  type ShardingPermissions,
  shardingPermissions,
  shardLeaseVerbs,
} from './sharding-permissions.js';
export { type StructuralSchemaOptions, toStructuralSchema } from './structural-schema.js';
