import type { FieldRequirement, KubernetesObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import type { Json } from '../../json/json.js';
import { type ResourceType, storageKeyOf } from '../../registry/resource-type.js';
import type { KeyRange } from '../../store/key-range.js';
import {
  type ObjectStore,
  type StoredObject,
  TooOldResourceVersionError,
} from '../../store/object-store.js';
import type { ListPage, ParsedListOptions } from './resource-service.js';
import { tooLargeResourceVersion } from './too-large-resource-version.js';

/**
 * A page of the objects of `type` that `matches` accepts, with kube-apiserver's
 * resourceVersion and paging semantics: `resourceVersion` unset or `0` reads the latest,
 * another with `resourceVersionMatch=Exact` (or a `limit`) reads at that revision (410 once
 * compacted, 504 when it is in the future); `limit` and `continue` page in key order at the
 * first page's revision, with `remainingItemCount`.
 */
export function listPage(
  store: ObjectStore,
  type: ResourceType,
  options: ParsedListOptions,
  matches: (object: KubernetesObject) => boolean,
): ListPage {
  const key = storageKeyOf(type);
  const current = store.currentRevision();
  let atRevision: number | undefined;
  let after: string | undefined;
  if (options.continueToken) {
    const token = decodeContinue(options.continueToken);
    atRevision = token.rv;
    after = token.start;
  } else if (
    options.resourceVersion !== undefined &&
    options.resourceVersion !== '' &&
    options.resourceVersion !== '0'
  ) {
    const requested = Number(options.resourceVersion);
    if (!Number.isInteger(requested) || requested < 0) {
      throw StatusError.badRequest(
        `resourceVersion: Invalid value: "${options.resourceVersion}": must be a non-negative integer`,
      );
    }
    if (requested > current) {
      throw tooLargeResourceVersion(requested, current);
    }
    const exact =
      options.resourceVersionMatch === 'Exact' ||
      (options.resourceVersionMatch === undefined &&
        options.limit !== undefined &&
        options.limit > 0);
    if (exact) atRevision = requested;
  } else if (
    options.resourceVersionMatch !== undefined &&
    options.resourceVersionMatch !== 'NotOlderThan'
  ) {
    throw StatusError.badRequest(
      `resourceVersionMatch "${options.resourceVersionMatch}" is forbidden for resourceVersion "${options.resourceVersion ?? ''}"`,
    );
  }
  const revision = atRevision ?? current;
  const namespacePrefix =
    type.namespaced && options.namespace ? `${options.namespace}/` : undefined;
  let range: KeyRange;
  try {
    range = store.range(key, { after, prefix: namespacePrefix }, atRevision);
  } catch (error) {
    if (!(error instanceof TooOldResourceVersionError)) throw error;
    if (options.continueToken) {
      throw StatusError.gone(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
    }
    throw StatusError.gone(`too old resource version: ${error.requested} (${error.oldest})`);
  }
  const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
  const items: StoredObject[] = [];
  // Reads the range only as far as the page needs (plus one key, to know whether more
  // follow), so a page costs what it holds, as one etcd range read per page does.
  let scanned = 0;
  let more = false;
  for (const stored of range) {
    if (limit !== undefined && items.length === limit) {
      more = true;
      break;
    }
    scanned++;
    if (matches(stored.object)) items.push(stored);
  }
  const last = items[items.length - 1];
  if (!more || last === undefined) return { items, resourceVersion: revision };
  const page: ListPage = {
    items,
    resourceVersion: revision,
    continueToken: encodeContinue({ rv: revision, start: last.key }),
  };
  // As kube's etcd3 store: the count of what follows is exact only without selectors, so
  // with one the count is left out rather than guessed (k8s.io/apiserver/pkg/storage/etcd3/store.go).
  if (!options.labels && (options.fields === undefined || options.fields.length === 0)) {
    page.remainingItemCount = range.size() - scanned;
  }
  return page;
}

interface ContinueToken {
  rv: number;
  start: string;
}
function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start }),
  ).toString('base64url');
}

function decodeContinue(text: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Json;
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string')
      return { rv: parsed.rv, start: parsed.start };
  } catch {
    // falls through to the error below
  }
  throw StatusError.badRequest(
    `invalid continue token: the continue parameter is not valid; start a new list without it`,
  );
}

/**
 * Checks that a field selector only uses fields this resource supports (`metadata.name`,
 * `metadata.namespace` when namespaced, and its selectable fields): 400 otherwise, worded
 * as kube-apiserver words it.
 */
export function checkFieldSelector(type: ResourceType, fields: readonly FieldRequirement[]): void {
  for (const { field } of fields) {
    if (field === 'metadata.name' || (field === 'metadata.namespace' && type.namespaced)) continue;
    if (type.selectableFields.includes(field)) continue;
    // Kinds with only the metadata fields answer as apimachinery's default conversion does;
    // kinds with their own (Pods, Events, ...) as their conversion functions.
    throw StatusError.badRequest(
      type.selectableFields.length === 0
        ? `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`
        : `field label not supported: ${field}`,
    );
  }
}
