import type { Selector } from '@ops/api';
import { parseLabelSelector } from '@ops/api';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { InformerStats } from './informer.js';

/**
 * The `labelSelector` query parameter of an informer's requests: undefined for no selector
 * or one that matches everything.
 *
 * @throws {LabelSelectorError} when `labelSelector` is a string that does not parse.
 * @throws {Error} when it is {@link Selector.nothing}, which has no string form the API
 *   server accepts.
 */
export function labelSelectorQuery(
  descriptor: ResourceDescriptor,
  labelSelector: Selector | string | undefined,
): string | undefined {
  const selector =
    typeof labelSelector === 'string' ? parseLabelSelector(labelSelector) : labelSelector;
  if (selector?.isNothing()) {
    throw new Error(
      `the label selector of the ${descriptor.plural} informer selects nothing; pass Selector.everything (or no selector) to watch every object`,
    );
  }
  return selector === undefined || selector.isEverything() ? undefined : selector.toString();
}

/** Counters at zero, for a new informer. */
export function noInformerStats(): InformerStats {
  return {
    listRequests: 0,
    lists: 0,
    watches: 0,
    goneRelists: 0,
    errorRelists: 0,
    expiredContinues: 0,
    silentWatches: 0,
    errors: 0,
    watchLists: 0,
    watchListFallbacks: 0,
  };
}

/** How an informer names its resource in logs and errors: resource, kind, namespace, selectors. */
export function describeInformer(
  descriptor: ResourceDescriptor,
  apiVersion: string,
  namespace: string,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): string {
  const resource = descriptor.group
    ? `${descriptor.plural}.${descriptor.group}`
    : descriptor.plural;
  let out = `${resource} (${apiVersion} ${descriptor.kind})`;
  if (namespace) out += ` in namespace "${namespace}"`;
  if (labelSelector) out += ` with labels "${labelSelector}"`;
  if (fieldSelector) out += ` with fields "${fieldSelector}"`;
  return out;
}
