import type { JSONSchemaProps, PrinterColumn, ScaleSubresource } from '@ops/api';
import type { WebhookClientConfig } from './webhook-client-config.js';

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
  /** The version objects are stored at (custom resources may be served at several). */
  storageVersion: string;
  /**
   * For a custom resource: the storage version's schema, which may be a version that is not
   * served (what a write in another version is validated by once converted).
   */
  storageSchema?: JSONSchemaProps;
  /**
   * For a custom resource whose CRD has `spec.conversion.strategy: Webhook`: the webhook that
   * converts between its versions. Absent: the `None` strategy, where only `apiVersion`
   * changes between versions.
   */
  conversionWebhook?: ConversionWebhook;
}

/** A CRD's conversion webhook (`spec.conversion.webhook`), service port defaulted to 443. */
export interface ConversionWebhook {
  /** The CRD's name (`widgets.example.com`). */
  crdName: string;
  clientConfig: WebhookClientConfig;
  /** The ConversionReview versions the webhook accepts, in preference order. */
  conversionReviewVersions: string[];
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
