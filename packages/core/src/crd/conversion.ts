/**
 * Conversion between the versions of a custom resource, hub and spoke, as controller-runtime's
 * `conversion.Hub` / `conversion.Convertible`: the storage version is the hub; every other
 * version is a spoke that converts to and from the hub, so an operator author writes one pair
 * of functions per spoke (never one per pair of versions), and `v1alpha1 -> v1beta1` goes
 * through the hub.
 */

import type { KubernetesObject, ObjectMeta } from '@ops/api';
import { isJsonObject, jsonEqual } from '@ops/api';
import { ConversionError } from '../errors/conversion-error.js';
import { CustomResourceDefinitionError } from '../errors/custom-resource-definition-error.js';
import {
  type CustomResource,
  type CustomResourceDefinition,
  type CustomResourceOptions,
  type CustomResourceStorageVersion,
  type CustomResourceVersionName,
  conversionWebhookPath,
  isCustomResourceDefinition,
} from './custom-resource.js';

/** The versions of `D` other than its storage version (the hub): its spokes. */
export type CustomResourceSpokeVersion<D extends { readonly options: CustomResourceOptions }> =
  Exclude<CustomResourceVersionName<D>, CustomResourceStorageVersion<D>>;

/**
 * How one spoke converts to and from the hub. Both functions receive a copy they may change
 * and return a whole object of the other version; they must keep `metadata` as it is but for
 * labels and annotations (kube-apiserver refuses other changes). Throw to refuse an object:
 * the message reaches the client that read or wrote it.
 */
export interface SpokeConversion<Hub, Spoke> {
  /** The spoke object in the hub (storage) version. */
  toHub(spoke: Spoke): Hub;
  /** The hub object in the spoke version. */
  fromHub(hub: Hub): Spoke;
}

/**
 * The conversion of spoke `V` of definition `D`, typed by the two versions' schemas: write
 * `export const v1beta1: Conversion<typeof myJob, 'v1beta1'> = { toHub, fromHub }` in the
 * spoke's folder.
 */
export type Conversion<
  D extends { readonly options: CustomResourceOptions },
  V extends CustomResourceSpokeVersion<D>,
> = SpokeConversion<CustomResource<D>, CustomResource<D, V>>;

/** One {@link Conversion} for every spoke of `D`, by version name. */
export type SpokeConversions<D extends { readonly options: CustomResourceOptions }> = {
  readonly [V in CustomResourceSpokeVersion<D>]: Conversion<D, V>;
};

const marker = Symbol.for('@ops/core.ConversionDeclaration');

/**
 * The conversions of one kind, made by {@link defineConversion}: served by the webhook
 * server at `path` (list it in `runOperator`'s `conversions`, or `WebhookServer.register`
 * it), where kube-apiserver sends the kind's ConversionReviews.
 */
export interface ConversionDeclaration {
  readonly [marker]: true;
  readonly definition: CustomResourceDefinition;
  /** {@link conversionWebhookPath}, the path the generated CRD names. */
  readonly path: string;
  /**
   * `object` converted to `desiredApiVersion` (`group/version`): through the hub, with
   * `apiVersion` and `kind` set; an object already in that version comes back as it is.
   * `object` is not changed.
   *
   * @throws {ConversionError} naming the object and the reason: a group, version or kind the
   *   definition does not have, an object without metadata, a conversion function that threw
   *   or did not return an object of the target version, or one that changed the metadata
   *   beyond labels and annotations.
   */
  convert(object: KubernetesObject, desiredApiVersion: string): KubernetesObject;
}

/** Whether `value` was made by {@link defineConversion} (of any copy of `@ops/core`). */
export function isConversionDeclaration(value: unknown): value is ConversionDeclaration {
  return typeof value === 'object' && value !== null && marker in value;
}

/**
 * Declares how the versions of `definition` convert: one {@link Conversion} per spoke
 * (every version but the storage version, which is the hub). The definition must say
 * `conversion: 'Webhook'`, so that its CRD sends conversions to the webhook.
 *
 * @throws {CustomResourceDefinitionError} when `definition` is not a `defineCustomResource`
 *   definition, does not say `conversion: 'Webhook'`, or a spoke's conversion is missing, is
 *   not `{ toHub, fromHub }`, or is given for the hub or a version the definition lacks.
 */
export function defineConversion<D extends { readonly options: CustomResourceOptions }>(
  target: D,
  spokes: NoInfer<SpokeConversions<D>>,
): ConversionDeclaration {
  const definition: unknown = target;
  if (!isCustomResourceDefinition(definition)) {
    throw new CustomResourceDefinitionError(
      'defineConversion: the first argument is not a definition made with defineCustomResource',
      'definition',
    );
  }
  const { options } = definition;
  const fail = (field: string, problem: string): never => {
    throw new CustomResourceDefinitionError(
      `conversion of custom resource ${JSON.stringify(options.kind)}: ${problem}`,
      field,
    );
  };
  if (options.conversion !== 'Webhook') {
    fail(
      'conversion',
      `the definition does not say conversion: 'Webhook', so its CRD would never call the conversion webhook; add it to defineCustomResource`,
    );
  }
  const hub: string = definition.version;
  const byVersion = new Map<string, SpokeConversion<KubernetesObject, KubernetesObject>>();
  const given = spokes as unknown as Record<string, unknown>;
  for (const name of Object.keys(given)) {
    if (name === hub) {
      fail(
        `conversion.${name}`,
        `${name} is the storage version, the hub every spoke converts to: it needs no conversion; remove it`,
      );
    }
    if (!options.versions.some((version) => version.name === name)) {
      fail(
        `conversion.${name}`,
        `the definition has no version ${JSON.stringify(name)} (it has ${options.versions.map((version) => version.name).join(', ')})`,
      );
    }
  }
  for (const version of options.versions) {
    if (version.name === hub) continue;
    const conversion = given[version.name];
    if (conversion === undefined) {
      fail(
        `conversion.${version.name}`,
        `version ${version.name} has no conversion: give { toHub, fromHub } converting it to and from ${hub}`,
      );
    }
    const { toHub, fromHub } = (conversion ?? {}) as Partial<SpokeConversion<unknown, unknown>>;
    if (typeof toHub !== 'function' || typeof fromHub !== 'function') {
      fail(
        `conversion.${version.name}`,
        `the conversion of ${version.name} must be { toHub(spoke), fromHub(hub) }, two functions`,
      );
    }
    byVersion.set(version.name, conversion as SpokeConversion<KubernetesObject, KubernetesObject>);
  }
  return Object.freeze({
    [marker]: true as const,
    definition,
    path: conversionWebhookPath,
    convert: (object: KubernetesObject, desiredApiVersion: string) =>
      convertObject(definition, byVersion, object, desiredApiVersion),
  });
}

/** `Kind namespace/name` (or `Kind name`), for messages. */
export function describeObject(object: unknown, fallbackKind = 'object'): string {
  const record = isJsonObject(object) ? object : {};
  const kind = typeof record.kind === 'string' && record.kind !== '' ? record.kind : fallbackKind;
  const metadata = isJsonObject(record.metadata) ? record.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : '(no name)';
  const namespace = typeof metadata.namespace === 'string' ? metadata.namespace : '';
  return `${kind} ${namespace === '' ? name : `${namespace}/${name}`}`;
}

function convertObject(
  definition: CustomResourceDefinition,
  spokes: ReadonlyMap<string, SpokeConversion<KubernetesObject, KubernetesObject>>,
  object: KubernetesObject,
  desiredApiVersion: string,
): KubernetesObject {
  const { group, kind } = definition;
  const label = describeObject(object, kind);
  const fail = (problem: string, cause?: unknown): never => {
    throw new ConversionError(
      `${label}: ${problem}`,
      label,
      cause === undefined ? undefined : { cause },
    );
  };
  const versionOf = (apiVersion: unknown, what: string): string => {
    const text = typeof apiVersion === 'string' ? apiVersion : '';
    const slash = text.lastIndexOf('/');
    const version = text.slice(slash + 1);
    if (
      slash < 0 ||
      text.slice(0, slash) !== group ||
      !definition.options.versions.some((known) => known.name === version)
    ) {
      fail(
        `${what} ${JSON.stringify(apiVersion)} is not a version of ${kind}: expected one of ${definition.options.versions.map((known) => `${group}/${known.name}`).join(', ')}`,
      );
    }
    return version;
  };
  if (!isJsonObject(object) || !isJsonObject(object.metadata)) {
    fail('is not an object with metadata');
  }
  if (object.kind !== kind) {
    fail(`has kind ${JSON.stringify(object.kind)}; this conversion converts ${kind}`);
  }
  const from = versionOf(object.apiVersion, 'apiVersion');
  const to = versionOf(desiredApiVersion, 'the desired apiVersion');
  if (from === to) return structuredClone(object);
  const hub: string = definition.version;
  const step = (
    input: KubernetesObject,
    source: string,
    target: string,
    spoke: string,
    direction: 'toHub' | 'fromHub',
  ): KubernetesObject => {
    const conversion = spokes.get(spoke);
    if (conversion === undefined) return fail(`no conversion for version ${spoke}`);
    let output: unknown;
    try {
      output = conversion[direction](structuredClone(input));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      fail(`converting ${group}/${source} to ${group}/${target} failed: ${reason}`, error);
    }
    const expected = `${group}/${target}`;
    if (!isJsonObject(output) || !isJsonObject(output.metadata)) {
      fail(`${spoke}'s ${direction} did not return an object with metadata`);
    }
    const result = output as KubernetesObject;
    if (result.apiVersion !== undefined && result.apiVersion !== expected) {
      fail(
        `${spoke}'s ${direction} returned apiVersion ${JSON.stringify(result.apiVersion)}, expected ${JSON.stringify(expected)}`,
      );
    }
    return { ...result, apiVersion: expected, kind };
  };
  const inHub = from === hub ? object : step(object, from, hub, from, 'toHub');
  const converted = to === hub ? inHub : step(inHub, hub, to, to, 'fromHub');
  const changed = changedMetadata(object.metadata, converted.metadata);
  if (changed !== undefined) {
    fail(
      `converting to ${desiredApiVersion} changed metadata.${changed}: a conversion may change only labels and annotations (kube-apiserver refuses anything else); keep the object's metadata`,
    );
  }
  return converted;
}

/** The first metadata field other than labels and annotations that differs, if any. */
function changedMetadata(
  before: ObjectMeta | undefined,
  after: ObjectMeta | undefined,
): string | undefined {
  const strip = (metadata: ObjectMeta | undefined): Record<string, unknown> => {
    const { labels: _labels, annotations: _annotations, ...rest } = metadata ?? {};
    return rest;
  };
  const a = strip(before);
  const b = strip(after);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!jsonEqual(a[key], b[key])) return key;
  }
  return undefined;
}
