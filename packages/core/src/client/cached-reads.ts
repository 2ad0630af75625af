import type { KubernetesObject, LabelSelector } from '@ops/api';
import {
  labelSelectorFromObject,
  matchesFieldSelector,
  parseLabelSelector,
  Selector,
} from '@ops/api';
import type { CacheReader } from '../cache/cache-reader.js';
import { metadataWatchAccept } from '../cache/metadata-only.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import { notFoundError } from './api-error-from-response.js';
import { isGone } from './api-error-helpers.js';
import type { CallOptions, ListOptions, ObjectList, ObjectRef } from './client.js';
import { fieldSelectorRequirements, fieldSelectorToString } from './field-selector.js';
import { cacheServes } from './reported-write.js';
import {
  partialObjectMetadata,
  type ResourceRequester,
  typedObject,
} from './resource-requester.js';
import { namespaceFor } from './write-target.js';

/** A label selector as `ListOptions` takes it, parsed. */
export function toSelector(selector: string | Selector | LabelSelector): Selector {
  if (typeof selector === 'string') return parseLabelSelector(selector);
  if (selector instanceof Selector) return selector;
  return labelSelectorFromObject(selector);
}

/**
 * The reads of a {@link Client}: `get` and `list` of whole objects or of their metadata, from
 * the cache when it serves the kind (synced, and read-your-writes satisfied), else from the API
 * server. The client parses its overloaded arguments and hands the request here; the
 * guarantees are the client methods' (see `Client.get`, `getMetadata`, `list`, `listMetadata`).
 */
export class CachedReads {
  constructor(
    private readonly restMapper: RestMapper,
    private readonly cache: CacheReader | undefined,
    private readonly requests: ResourceRequester,
    /** Items per page when listing from the API server. */
    private readonly pageSize: number,
  ) {}

  /** One object, or its metadata: the cache's copy or the server's. */
  async get(
    metadataOnly: boolean,
    ref: ObjectRef,
    callOptions: CallOptions | undefined,
  ): Promise<KubernetesObject> {
    const descriptor = await this.restMapper.resourceFor(ref.apiVersion, ref.kind);
    const ns = namespaceFor(descriptor, ref.namespace, ref.name, 'get');
    const cache = this.cache;
    const readCache = metadataOnly ? cache?.getMetadata?.bind(cache) : cache?.get.bind(cache);
    if (
      cache !== undefined &&
      readCache !== undefined &&
      (await cacheServes(cache, ref.apiVersion, ref.kind, ns, ref.name, metadataOnly))
    ) {
      const cached = readCache(ref.apiVersion, ref.kind, ns, ref.name);
      if (cached === undefined) throw notFoundError(descriptor.group, descriptor.plural, ref.name);
      return metadataOnly
        ? partialObjectMetadata(cached, descriptor)
        : typedObject(cached, descriptor);
    }
    const body = await this.requests.send(descriptor, 'get', 'GET', {
      ...(ns ? { namespace: ns } : {}),
      name: ref.name,
      ...(metadataOnly ? { accept: metadataWatchAccept } : {}),
      ...(callOptions?.signal ? { signal: callOptions.signal } : {}),
    });
    return metadataOnly ? partialObjectMetadata(body, descriptor) : typedObject(body, descriptor);
  }

  /** Every object of a kind (or one page of them), or their metadata. */
  async list<T extends KubernetesObject>(
    metadataOnly: boolean,
    apiVersion: string,
    kind: string,
    options: ListOptions,
  ): Promise<ObjectList<T>> {
    const descriptor = await this.restMapper.resourceFor(apiVersion, kind);
    const namespace = descriptor.namespaced && options.namespace ? options.namespace : undefined;
    const selector =
      options.labelSelector === undefined ? undefined : toSelector(options.labelSelector);
    const fieldText =
      options.fieldSelector === undefined
        ? undefined
        : fieldSelectorToString(options.fieldSelector);
    const empty: ObjectList<T> = { apiVersion, kind: `${kind}List`, metadata: {}, items: [] };
    if (selector?.isNothing()) return empty;
    const paged = options.limit !== undefined || options.continue !== undefined;
    const cache = this.cache;
    const readCache =
      metadataOnly && cache?.listMetadata !== undefined
        ? cache.listMetadata.bind(cache)
        : !metadataOnly && cache !== undefined
          ? cache.list.bind(cache)
          : undefined;
    if (
      !paged &&
      cache !== undefined &&
      readCache !== undefined &&
      (await cacheServes(cache, apiVersion, kind, namespace, undefined, metadataOnly))
    ) {
      const fields = fieldText ? fieldSelectorRequirements(fieldText) : [];
      const items = readCache(apiVersion, kind, {
        ...(namespace ? { namespace } : {}),
        ...(selector ? { labelSelector: selector } : {}),
      })
        .filter((item) => matchesFieldSelector(fields, item))
        .map(
          (item) =>
            (metadataOnly
              ? partialObjectMetadata(item, descriptor)
              : typedObject(item, descriptor)) as T,
        );
      return { ...empty, items };
    }
    const query: Record<string, string | number | undefined> = {
      labelSelector: selector && !selector.isEverything() ? selector.toString() : undefined,
      fieldSelector: fieldText || undefined,
      resourceVersion: options.resourceVersion,
    };
    const page = (limit: number | undefined, token: string | undefined) =>
      this.requests.listPage<T>(
        descriptor,
        namespace,
        { ...query, limit, continue: token },
        options.signal,
        metadataOnly,
      );
    if (paged) return page(options.limit, options.continue);
    const first = await page(this.pageSize, undefined);
    const items = [...first.items];
    let token = first.metadata.continue;
    while (token) {
      let next: ObjectList<T>;
      try {
        next = await page(this.pageSize, token);
      } catch (error) {
        // The snapshot the pages came from expired: list everything in one go instead.
        if (!isGone(error)) throw error;
        const whole = await page(undefined, undefined);
        return { ...whole, metadata: { ...whole.metadata, continue: undefined } };
      }
      items.push(...next.items);
      token = next.metadata.continue;
    }
    const resourceVersion = first.metadata.resourceVersion;
    return { ...first, metadata: resourceVersion ? { resourceVersion } : {}, items };
  }
}
