import type { InformerTransport } from './informer.js';
import { stripManagedFields, type TransformFunc } from './strip-managed-fields.js';

/** The Accept header of a metadata-only GET or watch: PartialObjectMetadata, else the object. */
export const metadataWatchAccept =
  'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/** The Accept header of a metadata-only list: PartialObjectMetadataList, else the list. */
export const metadataListAccept =
  'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/**
 * The transform of a metadata-only informer: keeps the object's `metadata` only (whatever
 * the server sent, a PartialObjectMetadata or, from a server that ignored the Accept header,
 * the whole object), stores it under the resource's `apiVersion` and `kind`, as
 * controller-runtime does, then applies `transform`.
 */
export function metadataOnlyTransform(
  transform: TransformFunc,
  apiVersion: string,
  kind: string,
): TransformFunc {
  return (object) => transform({ apiVersion, kind, metadata: object.metadata ?? {} });
}

/**
 * The transport of an informer: `transport` itself, or for a metadata-only one, the same
 * transport asking for PartialObjectMetadata: lists with {@link metadataListAccept},
 * watches with {@link metadataWatchAccept}.
 */
export function informerTransport(
  transport: InformerTransport,
  metadataOnly: boolean | undefined,
): InformerTransport {
  if (metadataOnly !== true) return transport;
  return {
    request: (request) => transport.request({ ...request, accept: metadataListAccept }),
    watch: (path, query, handlers) => transport.watch(path, query, handlers, metadataWatchAccept),
  };
}

/**
 * The transform of an informer: `transform` (default {@link stripManagedFields}), after
 * {@link metadataOnlyTransform} for a metadata-only one.
 */
export function informerTransform(
  options: { transform?: TransformFunc; metadataOnly?: boolean; descriptor: { kind: string } },
  apiVersion: string,
): TransformFunc {
  const transform = options.transform ?? stripManagedFields;
  return options.metadataOnly === true
    ? metadataOnlyTransform(transform, apiVersion, options.descriptor.kind)
    : transform;
}
