/**
 * Lossless round trips through a spoke that cannot hold everything the hub holds, as kube's
 * own API machinery does for lossy conversions (and cluster-api's `conversion-data`): the hub
 * fields the spoke has no place for travel in an annotation of the spoke object, and come back
 * when the spoke object is converted to the hub again (a client that reads `v1beta1`, edits
 * and writes it back loses nothing it could not see).
 */

import type { ObjectMeta } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type {
  CustomResource,
  CustomResourceDefinition,
  CustomResourceOptions,
} from './custom-resource.js';

/** `T` with every object field optional, at any depth; arrays are kept whole. */
export type DeepPartial<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/**
 * The hub fields a spoke keeps in its annotation: the parts of `spec` and `status` the spoke
 * cannot hold (whole subtrees; arrays whole).
 */
export interface HubData<Hub extends { spec: unknown; status?: unknown }> {
  spec?: DeepPartial<Hub['spec']>;
  status?: DeepPartial<NonNullable<Hub['status']>>;
}

/** What {@link ConversionData.restore} gives back. */
export interface RestoredHubData<Hub extends { spec: unknown; status?: unknown }> {
  /** The spoke's metadata without the annotation (and without `annotations` when it was the only one). */
  metadata: ObjectMeta;
  /** The kept hub fields, or `undefined` when the object carries none (written in the spoke by a client). */
  kept: HubData<Hub> | undefined;
}

/** The helper {@link conversionData} returns, bound to one definition. */
export interface ConversionData<Hub extends { spec: unknown; status?: unknown }> {
  /** The annotation the data travels in: `<group>/conversion-data`. */
  readonly annotation: string;
  /**
   * In `fromHub`: `spoke` (a new object; `spoke` is not changed) with `kept` stored as JSON in
   * {@link annotation}. Undefined fields and objects left empty are dropped; when nothing is
   * left, the annotation is removed instead (and `annotations` when it ends up empty), so a
   * hub object the spoke holds whole reads back without it.
   */
  save<S extends { metadata: ObjectMeta }>(spoke: S, kept: HubData<Hub>): S;
  /**
   * In `toHub`: the kept hub fields of `spoke`, and its metadata without the annotation (use it
   * as the hub's metadata). Take from `kept` only the fields the spoke cannot express and the
   * rest from the spoke, so edits made in the spoke win.
   *
   * @throws {Error} naming the annotation when it is not a JSON object (edited by hand): remove
   *   it, or write it back as the conversion wrote it.
   */
  restore(spoke: { metadata: ObjectMeta }): RestoredHubData<Hub>;
}

/**
 * The lossy-conversion helper of `definition`, typed by its hub (storage) version. In the
 * spoke's {@link Conversion}:
 *
 * ```ts
 * const data = conversionData(myJob);
 * fromHub: (hub) => data.save({ ...spokeOf(hub) }, { status: { conditions: hub.status?.conditions } }),
 * toHub: (spoke) => {
 *   const { metadata, kept } = data.restore(spoke);
 *   return { ...hubOf(spoke), metadata, status: { ...hubStatusOf(spoke), conditions: kept?.status?.conditions } };
 * },
 * ```
 *
 * Guarantee: `toHub(fromHub(hub))` equals `hub` when `fromHub` saves every field the spoke
 * cannot hold and `toHub` restores them. The annotation counts against the object's 256 KiB
 * of annotations: keep only what is lost.
 */
export function conversionData<D extends { readonly options: CustomResourceOptions }>(
  definition: D,
): ConversionData<CustomResource<D>> {
  const annotation = `${(definition as unknown as CustomResourceDefinition).group}/conversion-data`;
  return Object.freeze({
    annotation,
    save<S extends { metadata: ObjectMeta }>(spoke: S, kept: HubData<CustomResource<D>>): S {
      const { [annotation]: _previous, ...others } = spoke.metadata.annotations ?? {};
      const data = pruned(JSON.parse(JSON.stringify(kept)));
      const annotations =
        data === undefined ? others : { ...others, [annotation]: JSON.stringify(data) };
      const { annotations: _annotations, ...metadata } = spoke.metadata;
      return {
        ...spoke,
        metadata: Object.keys(annotations).length === 0 ? metadata : { ...metadata, annotations },
      };
    },
    restore(spoke: { metadata: ObjectMeta }): RestoredHubData<CustomResource<D>> {
      const { annotations: current, ...rest } = spoke.metadata;
      const text = current?.[annotation];
      if (text === undefined) return { metadata: { ...spoke.metadata }, kept: undefined };
      const { [annotation]: _kept, ...others } = current ?? {};
      const metadata: ObjectMeta =
        Object.keys(others).length === 0 ? rest : { ...rest, annotations: others };
      let kept: unknown;
      try {
        kept = JSON.parse(text);
      } catch {
        kept = undefined;
      }
      if (!isJsonObject(kept)) {
        throw new Error(
          `annotation ${annotation} is not the JSON object a conversion wrote (edited by hand?): remove it, or restore the value read from the API`,
        );
      }
      return { metadata, kept: kept as HubData<CustomResource<D>> };
    },
  });
}

/** `value` without undefined fields and objects that are (or end up) empty; `undefined` if nothing is left. */
function pruned(value: unknown): unknown {
  if (!isJsonObject(value)) return value;
  const entries = Object.entries(value)
    .map(([key, child]) => [key, pruned(child)] as const)
    .filter(([, child]) => child !== undefined);
  return entries.length === 0 ? undefined : Object.fromEntries(entries);
}
