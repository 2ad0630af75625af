/**
 * Custom resources declared once, in TypeScript: {@link defineCustomResource} takes the names,
 * scope and versions (TypeBox schemas for `spec` and `status`, printer columns,
 * subresources) and gives the `CustomResourceDefinition` to apply, the
 * {@link ResourceDescriptor} the client needs, client-side validation, and — through
 * {@link CustomResource} — the TypeScript type of the objects. It is what kubebuilder's
 * `+kubebuilder:` markers and controller-gen do for Go types.
 */

import type {
  CustomResourceConversion,
  CustomResourceDefinitionObject,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
  ObjectMeta,
  PrinterColumn,
  ScaleSubresource,
  SelectableField,
} from '@ops/api';
import { isJsonObject, validateDns1123Label, validateDns1123Subdomain } from '@ops/api';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CustomResourceDefinitionError } from '../errors/custom-resource-definition-error.js';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import { sortKeys, toStructuralSchema } from './structural-schema.js';
import { valueSchemaOf } from './value-schema.js';
import { defaultWebhookService } from './webhook-service.js';

/** One version of a custom resource, as given to {@link defineCustomResource}. */
export interface CustomResourceVersionOptions {
  /** The version name, a DNS-1035 label: `v1`, `v1beta1`. */
  readonly name: string;
  /** Whether the API serves this version. Default `true`. */
  readonly served?: boolean;
  /**
   * Whether objects are stored in this version. Exactly one version stores; with a single
   * version it defaults to `true`, with several one must say `storage: true`.
   */
  readonly storage?: boolean;
  readonly deprecated?: boolean;
  /** The warning returned to clients of a deprecated version. */
  readonly deprecationWarning?: string;
  /** The schema of `spec`: a TypeBox object (see {@link toStructuralSchema}). */
  readonly spec: TSchema;
  /** The schema of `status`, a TypeBox object; absent when the kind has no status. */
  readonly status?: TSchema;
  /** Extra `kubectl get` columns, in order. */
  readonly printerColumns?: readonly PrinterColumn[];
  /**
   * `status`: the `/status` subresource (default: on when `status` has a schema, so that
   * users cannot write status and the controller cannot write spec through it).
   * `scale`: the `/scale` subresource.
   */
  readonly subresources?: {
    readonly status?: boolean;
    readonly scale?: ScaleSubresource;
  };
  /** Fields usable in field selectors (Kubernetes >= 1.30), at most 8. */
  readonly selectableFields?: readonly SelectableField[];
}

/** What {@link defineCustomResource} takes: the names, scope and versions of a kind. */
export interface CustomResourceOptions {
  /** The API group, a DNS subdomain with at least one dot: `core.crd.lixueduan.com`. */
  readonly group: string;
  /** The kind, CamelCase: `Application`. */
  readonly kind: string;
  /** The resource (URL) name, lowercase plural: `applications`. */
  readonly plural: string;
  /** Lowercase singular name. Default: the kind in lowercase. */
  readonly singular?: string;
  /** The kind of lists. Default: `<kind>List`. */
  readonly listKind?: string;
  /** Short names for kubectl: `app`. */
  readonly shortNames?: readonly string[];
  /** Groups of resources for kubectl (`kubectl get all` uses `all`). */
  readonly categories?: readonly string[];
  readonly scope: 'Namespaced' | 'Cluster';
  /** Description of the kind, on each version's root schema. */
  readonly description?: string;
  /** Annotations of the CustomResourceDefinition object. */
  readonly annotations?: Readonly<Record<string, string>>;
  readonly versions: readonly CustomResourceVersionOptions[];
  /**
   * How the API server converts objects between versions. `None` (the default) only
   * rewrites `apiVersion`, so it fits versions whose schemas are the same. `Webhook` renders
   * `spec.conversion` calling the operator's conversion webhook (see `defineConversion`) at
   * {@link conversionWebhookPath} through the webhook Service (`webhook-service` in
   * `system`, which kustomize renames, as kubebuilder's); it needs two versions or more.
   */
  readonly conversion?: 'None' | 'Webhook';
}

/**
 * The URL path the conversion webhook is served at and the generated CRDs name:
 * `/convert`, controller-runtime's. One path serves every kind of an operator.
 */
export const conversionWebhookPath = '/convert';

/** One problem found by {@link CustomResourceDefinition.validate}. */
export interface CustomResourceValidationIssue {
  /** JSON Pointer to the offending value: `/spec/image`; `` for the object itself. */
  path: string;
  message: string;
  /** The offending value. */
  value: unknown;
}

const definitionMarker = Symbol.for('@ops/core.CustomResourceDefinition');

type VersionOf<O extends CustomResourceOptions> = O['versions'][number];
type StorageVersionOf<O extends CustomResourceOptions> = [
  Extract<VersionOf<O>, { readonly storage: true }>,
] extends [never]
  ? VersionOf<O>
  : Extract<VersionOf<O>, { readonly storage: true }>;

/** The names of the versions of a definition: `'v1' | 'v1beta1'`. */
export type CustomResourceVersionName<D extends { readonly options: CustomResourceOptions }> =
  VersionOf<D['options']>['name'];

/** The name of the storage version of a definition. */
export type CustomResourceStorageVersion<D extends { readonly options: CustomResourceOptions }> =
  StorageVersionOf<D['options']>['name'];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOfVersion<
  O extends CustomResourceOptions,
  V extends CustomResourceVersionOptions,
> = V extends CustomResourceVersionOptions
  ? Simplify<
      {
        apiVersion: `${O['group']}/${V['name']}`;
        kind: O['kind'];
        metadata: ObjectMeta;
        spec: Static<V['spec']>;
      } & (V extends { readonly status: infer S extends TSchema }
        ? { status?: Static<S> }
        : unknown)
    >
  : never;

/**
 * The TypeScript type of the objects of a custom resource, in version `V` (default: the
 * storage version): `{ apiVersion; kind; metadata: ObjectMeta; spec: Static<spec>;
 * status?: Static<status> }` (`status` only when the version has one). Write
 * `type Application = CustomResource<typeof application>`.
 *
 * `apiVersion` and `kind` are literal types when the definition was written inline (the
 * options are inferred `const`).
 */
export type CustomResource<
  D extends { readonly options: CustomResourceOptions },
  V extends CustomResourceVersionName<D> = CustomResourceStorageVersion<D>,
> = ObjectOfVersion<D['options'], Extract<VersionOf<D['options']>, { readonly name: V }>>;

/** A custom resource kind, as returned by {@link defineCustomResource}. */
export interface CustomResourceDefinition<O extends CustomResourceOptions = CustomResourceOptions> {
  readonly [definitionMarker]: true;
  /** The options as given. */
  readonly options: O;
  readonly group: O['group'];
  readonly kind: O['kind'];
  readonly plural: O['plural'];
  readonly namespaced: boolean;
  /** The name of the CustomResourceDefinition object: `<plural>.<group>`. */
  readonly name: string;
  /** The storage version's name: `v1`. */
  readonly version: CustomResourceStorageVersion<{ options: O }>;
  /** `group/version` of the storage version: `core.crd.lixueduan.com/v1`. */
  readonly apiVersion: `${O['group']}/${CustomResourceStorageVersion<{ options: O }>}`;
  /** Where the kind lives in the API (storage version), for the client and cache. */
  readonly descriptor: ResourceDescriptor;
  /**
   * The `apiextensions.k8s.io/v1` CustomResourceDefinition, with keys sorted. A new object
   * on every call: the caller may change it.
   */
  crd(): CustomResourceDefinitionObject;
  /**
   * Checks `object` client-side against the schemas of the version its `apiVersion` names:
   * `apiVersion`, `kind`, the basic types of `metadata`, `spec` (required) and `status`.
   * Returns every problem found, empty when valid. Defaults are not applied, and string
   * formats (`date-time`, ...) and CEL rules (`x-kubernetes-validations`) are not checked:
   * the API server remains the authority.
   */
  validate(object: unknown): CustomResourceValidationIssue[];
}

/** Whether `value` is a definition made by {@link defineCustomResource} (of any copy of this package). */
export function isCustomResourceDefinition(value: unknown): value is CustomResourceDefinition {
  return typeof value === 'object' && value !== null && definitionMarker in value;
}

const printerColumnTypes: readonly string[] = ['integer', 'number', 'string', 'boolean', 'date'];
const printerColumnFormats: readonly string[] = [
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'date',
  'date-time',
  'password',
];
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const maxSelectableFields = 8;

/**
 * Declares a custom resource kind. Everything is checked now, so a mistake fails when the
 * module defining the kind is imported, not when the CRD is applied: the names (the group a
 * DNS subdomain with a dot; plural, singular, short names and categories DNS-1123 labels;
 * kind and list kind DNS-1035 labels once lowercased), the versions (at least one, unique
 * DNS-1035 names, exactly one storage version, at least one served), printer columns
 * (name, type, `.`-prefixed jsonPath, format, priority >= 0), subresources and the schemas
 * (converted with {@link toStructuralSchema}; `spec` and `status` must be objects).
 *
 * The rendered CRD has, per version, an `openAPIV3Schema` of type object with `apiVersion`,
 * `kind`, `metadata`, `spec` and (when declared) `status`; `spec` is required, so that
 * every stored object has one (matching {@link CustomResource}'s `spec`).
 *
 * @throws {CustomResourceDefinitionError} naming the option and the rule it breaks.
 * @throws {StructuralSchemaError} naming the schema path Kubernetes cannot express.
 */
export function defineCustomResource<const O extends CustomResourceOptions>(
  options: O,
): CustomResourceDefinition<O> {
  const label = `custom resource ${JSON.stringify(options.kind)}`;
  const fail = (field: string, problem: string): never => {
    throw new CustomResourceDefinitionError(`${label}: ${field} ${problem}`, field);
  };
  validateNames(options, fail);
  const storage = storageVersionOf(options, fail);
  const versions = options.versions.map((version, index) =>
    renderVersion(options, version, index, storage === version, fail),
  );
  const name = `${options.plural}.${options.group}`;
  const names: CustomResourceDefinitionObject['spec']['names'] = {
    kind: options.kind,
    listKind: options.listKind ?? `${options.kind}List`,
    plural: options.plural,
    singular: options.singular ?? options.kind.toLowerCase(),
  };
  if (options.shortNames !== undefined && options.shortNames.length > 0) {
    names.shortNames = [...options.shortNames];
  }
  if (options.categories !== undefined && options.categories.length > 0) {
    names.categories = [...options.categories];
  }
  const metadata: CustomResourceDefinitionObject['metadata'] = { name };
  if (options.annotations !== undefined && Object.keys(options.annotations).length > 0) {
    metadata.annotations = { ...options.annotations };
  }
  const rendered = sortKeys({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata,
    spec: {
      group: options.group,
      names,
      scope: options.scope,
      versions,
      ...conversionOf(options, fail),
    },
  }) as CustomResourceDefinitionObject;

  const namespaced = options.scope === 'Namespaced';
  const objectSchemas = new Map(
    options.versions.map((version) => [
      `${options.group}/${version.name}`,
      objectSchemaOf(options, version),
    ]),
  );
  const apiVersion = `${options.group}/${storage.name}`;
  return Object.freeze({
    [definitionMarker]: true as const,
    options,
    group: options.group,
    kind: options.kind,
    plural: options.plural,
    namespaced,
    name,
    version: storage.name,
    apiVersion,
    descriptor: Object.freeze({
      group: options.group,
      version: storage.name,
      kind: options.kind,
      plural: options.plural,
      namespaced,
    }),
    crd: () => structuredClone(rendered),
    validate: (object: unknown) => validateObject(object, objectSchemas),
  }) as CustomResourceDefinition<O>;
}

type Fail = (field: string, problem: string) => never;

function conversionOf(
  options: CustomResourceOptions,
  fail: Fail,
): { conversion?: CustomResourceConversion } {
  const strategy = options.conversion ?? 'None';
  if (strategy === 'None') return {};
  if (strategy !== 'Webhook') {
    return fail('conversion', `must be "None" or "Webhook", got ${JSON.stringify(strategy)}`);
  }
  if (options.versions.length < 2) {
    fail(
      'conversion',
      'is "Webhook" but the kind has one version: a conversion webhook converts between versions, so add the new version first (or leave conversion out)',
    );
  }
  return {
    conversion: {
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          service: {
            name: defaultWebhookService.name,
            namespace: defaultWebhookService.namespace,
            path: conversionWebhookPath,
          },
        },
        conversionReviewVersions: ['v1'],
      },
    },
  };
}

function validateNames(options: CustomResourceOptions, fail: Fail): void {
  const subdomainErrors = validateDns1123Subdomain(options.group);
  if (subdomainErrors.length > 0) {
    fail('group', `${JSON.stringify(options.group)}: ${subdomainErrors.join('; ')}`);
  }
  if (!options.group.includes('.')) {
    fail(
      'group',
      `${JSON.stringify(options.group)} must be a domain with at least one dot, e.g. example.com`,
    );
  }
  const checkLabel = (field: string, value: string) => {
    const errors = validateDns1123Label(value);
    if (errors.length > 0) fail(field, `${JSON.stringify(value)}: ${errors.join('; ')}`);
  };
  const checkKind = (field: string, value: string) => {
    if (!dns1035Label.test(value.toLowerCase()) || value.length > 63) {
      fail(
        field,
        `${JSON.stringify(value)} must be CamelCase letters and digits starting with a letter (a DNS-1035 label once lowercased), e.g. Application`,
      );
    }
  };
  checkKind('kind', options.kind);
  if (options.listKind !== undefined) {
    checkKind('listKind', options.listKind);
    if (options.listKind === options.kind) fail('listKind', 'must differ from kind');
  }
  checkLabel('plural', options.plural);
  if (options.plural !== options.plural.toLowerCase()) fail('plural', 'must be lowercase');
  if (options.singular !== undefined) checkLabel('singular', options.singular);
  for (const [field, values] of [
    ['shortNames', options.shortNames ?? []],
    ['categories', options.categories ?? []],
  ] as const) {
    values.forEach((value, index) => {
      checkLabel(`${field}[${index}]`, value);
    });
    const duplicate = values.find((value, index) => values.indexOf(value) !== index);
    if (duplicate !== undefined) fail(field, `lists ${JSON.stringify(duplicate)} twice`);
  }
  if (options.scope !== 'Namespaced' && options.scope !== 'Cluster') {
    fail('scope', `must be "Namespaced" or "Cluster", got ${JSON.stringify(options.scope)}`);
  }
}

function storageVersionOf(
  options: CustomResourceOptions,
  fail: Fail,
): CustomResourceVersionOptions {
  const { versions } = options;
  if (versions.length === 0) fail('versions', 'must list at least one version');
  const seen = new Set<string>();
  versions.forEach((version, index) => {
    if (!dns1035Label.test(version.name) || version.name.length > 63) {
      fail(
        `versions[${index}].name`,
        `${JSON.stringify(version.name)} must be a DNS-1035 label, e.g. v1 or v1beta1`,
      );
    }
    if (seen.has(version.name)) {
      fail(`versions[${index}].name`, `${JSON.stringify(version.name)} is listed twice`);
    }
    seen.add(version.name);
  });
  if (!versions.some((version) => version.served !== false)) {
    fail('versions', 'must serve at least one version (served: true)');
  }
  const [only] = versions;
  if (versions.length === 1 && only !== undefined && only.storage !== false) return only;
  const storing = versions.filter((version) => version.storage === true);
  const [storage] = storing;
  if (storing.length !== 1 || storage === undefined) {
    return fail(
      'versions',
      `must mark exactly one version storage: true (found ${storing.length === 0 ? 'none' : storing.map((version) => version.name).join(', ')})`,
    );
  }
  return storage;
}

function renderVersion(
  options: CustomResourceOptions,
  version: CustomResourceVersionOptions,
  index: number,
  storage: boolean,
  fail: Fail,
): CustomResourceDefinitionVersion {
  const field = `versions[${index}]`;
  const rendered: CustomResourceDefinitionVersion = {
    name: version.name,
    served: version.served ?? true,
    storage,
    schema: { openAPIV3Schema: rootSchemaOf(options, version, field, fail) },
  };
  if (version.deprecated !== undefined) rendered.deprecated = version.deprecated;
  if (version.deprecationWarning !== undefined) {
    rendered.deprecationWarning = version.deprecationWarning;
  }
  const subresources: CustomResourceSubresources = {};
  if (version.subresources?.status ?? version.status !== undefined) subresources.status = {};
  const scale = version.subresources?.scale;
  if (scale !== undefined) {
    if (!scale.specReplicasPath.startsWith('.spec.')) {
      fail(`${field}.subresources.scale.specReplicasPath`, 'must start with .spec.');
    }
    if (!scale.statusReplicasPath.startsWith('.status.')) {
      fail(`${field}.subresources.scale.statusReplicasPath`, 'must start with .status.');
    }
    if (
      scale.labelSelectorPath !== undefined &&
      !/^\.(spec|status)\./.test(scale.labelSelectorPath)
    ) {
      fail(`${field}.subresources.scale.labelSelectorPath`, 'must start with .spec. or .status.');
    }
    subresources.scale = { ...scale };
  }
  if (Object.keys(subresources).length > 0) rendered.subresources = subresources;
  if (version.printerColumns !== undefined && version.printerColumns.length > 0) {
    rendered.additionalPrinterColumns = version.printerColumns.map((column, columnIndex) =>
      renderColumn(column, `${field}.printerColumns[${columnIndex}]`, fail),
    );
    const names = version.printerColumns.map((column) => column.name);
    const duplicate = names.find((name, nameIndex) => names.indexOf(name) !== nameIndex);
    if (duplicate !== undefined) {
      fail(`${field}.printerColumns`, `lists the column ${JSON.stringify(duplicate)} twice`);
    }
  }
  if (version.selectableFields !== undefined && version.selectableFields.length > 0) {
    if (version.selectableFields.length > maxSelectableFields) {
      fail(`${field}.selectableFields`, `may list at most ${maxSelectableFields} fields`);
    }
    rendered.selectableFields = version.selectableFields.map((selectable, fieldIndex) => {
      if (!selectable.jsonPath.startsWith('.')) {
        fail(`${field}.selectableFields[${fieldIndex}].jsonPath`, 'must start with .');
      }
      return { jsonPath: selectable.jsonPath };
    });
  }
  return rendered;
}

function renderColumn(column: PrinterColumn, field: string, fail: Fail): PrinterColumn {
  if (column.name.trim() === '') fail(`${field}.name`, 'must be non-empty');
  if (!printerColumnTypes.includes(column.type)) {
    fail(`${field}.type`, `must be one of ${printerColumnTypes.join(', ')}`);
  }
  if (!column.jsonPath.startsWith('.')) {
    fail(
      `${field}.jsonPath`,
      `${JSON.stringify(column.jsonPath)} must start with ., e.g. .status.ready`,
    );
  }
  if (column.format !== undefined && !printerColumnFormats.includes(column.format)) {
    fail(`${field}.format`, `must be one of ${printerColumnFormats.join(', ')}`);
  }
  if (
    column.priority !== undefined &&
    (!Number.isInteger(column.priority) || column.priority < 0)
  ) {
    fail(`${field}.priority`, 'must be an integer >= 0');
  }
  const rendered: PrinterColumn = {
    name: column.name,
    type: column.type,
    jsonPath: column.jsonPath,
  };
  if (column.description !== undefined) rendered.description = column.description;
  if (column.format !== undefined) rendered.format = column.format;
  if (column.priority !== undefined) rendered.priority = column.priority;
  return rendered;
}

const apiVersionDescription =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const kindDescription =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

function rootSchemaOf(
  options: CustomResourceOptions,
  version: CustomResourceVersionOptions,
  field: string,
  fail: Fail,
): JSONSchemaProps {
  const objectSchema = (schema: TSchema, name: 'spec' | 'status'): JSONSchemaProps => {
    const converted = toStructuralSchema(schema, { path: name });
    if (converted.type !== 'object') {
      fail(`${field}.${name}`, 'must be an object schema (Type.Object)');
    }
    return converted;
  };
  const properties: Record<string, JSONSchemaProps> = {
    apiVersion: { description: apiVersionDescription, type: 'string' },
    kind: { description: kindDescription, type: 'string' },
    metadata: { type: 'object' },
    spec: objectSchema(version.spec, 'spec'),
  };
  if (version.status !== undefined) properties.status = objectSchema(version.status, 'status');
  const root: JSONSchemaProps = { type: 'object', properties, required: ['spec'] };
  if (options.description !== undefined) root.description = options.description;
  return root;
}

/** The TypeBox schema of a whole object of `version`, for {@link validateObject}. */
function objectSchemaOf(options: CustomResourceOptions, version: CustomResourceVersionOptions) {
  const labels = Type.Optional(Type.Record(Type.String(), Type.String()));
  return Type.Object({
    apiVersion: Type.Literal(`${options.group}/${version.name}`),
    kind: Type.Literal(options.kind),
    metadata: Type.Object({
      name: Type.Optional(Type.String()),
      generateName: Type.Optional(Type.String()),
      namespace: Type.Optional(Type.String()),
      labels,
      annotations: labels,
    }),
    spec: valueSchemaOf(version.spec),
    ...(version.status === undefined
      ? {}
      : { status: Type.Optional(valueSchemaOf(version.status)) }),
  });
}

function validateObject(
  object: unknown,
  schemas: ReadonlyMap<string, TSchema>,
): CustomResourceValidationIssue[] {
  if (!isJsonObject(object)) {
    return [{ path: '', message: 'Expected an object', value: object }];
  }
  const apiVersion = object.apiVersion;
  const schema = typeof apiVersion === 'string' ? schemas.get(apiVersion) : undefined;
  if (schema === undefined) {
    return [
      {
        path: '/apiVersion',
        message: `Expected one of ${[...schemas.keys()].map((key) => JSON.stringify(key)).join(', ')}`,
        value: apiVersion,
      },
    ];
  }
  return [...Value.Errors(schema, object)].map((error) => ({
    path: error.path,
    message: error.message,
    value: error.value,
  }));
}
