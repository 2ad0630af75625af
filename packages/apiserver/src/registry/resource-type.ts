import type { JSONSchemaProps, PrinterColumn, ScaleSubresource } from '@ops/api';

export type { PrinterColumn };

/**
 * One resource the server serves: its group, version, kind and plural, its scope and
 * subresources, and (for custom resources) its schema and printer columns.
 */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  /** Plural resource name: the URL segment. */
  plural: string;
  singular: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  subresources: { status: boolean; scale: boolean };
  /**
   * For a custom resource with `/scale`: where its CRD version keeps the replicas and the
   * selector (`specReplicasPath`, `statusReplicasPath`, `labelSelectorPath`). Built-in
   * resources with `/scale` use `spec.replicas`, `status.replicas` and `spec.selector`.
   */
  scalePaths?: ScaleSubresource;
  /** Fields, besides metadata.name/namespace, that field selectors may use. */
  selectableFields: string[];
  printerColumns: PrinterColumn[];
  /** For custom resources: the version's OpenAPI v3 schema. */
  schema?: JSONSchemaProps;
  /** True for resources defined by a CustomResourceDefinition. */
  custom: boolean;
  /** The versions the same objects are served at (custom resources may have several). */
  storageVersion: string;
}

/** `group/version`, or `version` for the core group. */
export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** The storage key of a resource: one per group and plural, whatever the version. */
export function storageKeyOf(type: Pick<ResourceType, 'group' | 'plural'>): string {
  return `${type.group}/${type.plural}`;
}

/** The object key of a name within a resource: `namespace/name`, or `name` when cluster-scoped. */
export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export const allVerbs = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];
