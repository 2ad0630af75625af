import type { KubernetesObject } from '@ops/api';
import type { CacheReader } from '../cache/cache-reader.js';
import { currentWriter } from '../cache/write-origin.js';
import { apiVersionOfDescriptor, type ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { TransportRequest } from '../transport/kube-transport.js';

/** What {@link sendReportedWrite} reads of a write request. */
export interface ReportedWriteRequest {
  namespace?: string;
  name?: string;
  query?: TransportRequest['query'];
  body?: unknown;
}

/**
 * Sends a write (`send`) and tells the cache of it, for read-your-writes: before sending,
 * that the current controller (see `runAsWriter`) writes the object, when it is named
 * (`beginWrite`); after the answer, the object's resourceVersion (`recordWrite`). Nothing is
 * reported of a dry run (`dryRun=All`), of a failed write, or of a delete answered with a
 * Status, which names no version. Returns the answer's body; rethrows `send`'s error.
 */
export async function sendReportedWrite(
  cache: CacheReader,
  descriptor: ResourceDescriptor,
  deleted: boolean,
  request: ReportedWriteRequest,
  send: () => Promise<unknown>,
): Promise<unknown> {
  if (request.query?.dryRun === 'All') return send();
  const writer = currentWriter();
  const target = {
    apiVersion: apiVersionOfDescriptor(descriptor),
    kind: descriptor.kind,
    namespace: request.namespace ?? '',
  };
  const name = request.name ?? (request.body as KubernetesObject | undefined)?.metadata?.name;
  const answered =
    name && writer !== undefined && cache.beginWrite !== undefined
      ? cache.beginWrite({ ...target, name, writer })
      : undefined;
  let body: unknown;
  try {
    body = await send();
  } catch (error) {
    answered?.();
    throw error;
  }
  const object = body as KubernetesObject | undefined;
  const resourceVersion = object?.kind === 'Status' ? undefined : object?.metadata?.resourceVersion;
  const written = object?.metadata?.name ?? name;
  if (resourceVersion && written && cache.recordWrite !== undefined) {
    cache.recordWrite({
      ...target,
      name: written,
      resourceVersion,
      deleted,
      ...(writer !== undefined ? { writer } : {}),
    });
  }
  answered?.(resourceVersion);
  return body;
}

/**
 * Whether a read of the kind (the object `name`, or the kind's objects in `namespace`) is
 * served by `cache`: it has the kind (with `metadataOnly`, cached metadata-only:
 * `hasMetadata`), and shows this process's writes of it (waiting for them, see
 * `CacheReader.awaitOwnWrites`). False sends the read to the API server.
 */
export async function cacheServes(
  cache: CacheReader,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  name?: string,
  metadataOnly = false,
): Promise<boolean> {
  const cached = metadataOnly
    ? cache.hasMetadata?.(apiVersion, kind) === true
    : cache.has(apiVersion, kind);
  if (!cached) return false;
  if (cache.awaitOwnWrites === undefined) return true;
  return metadataOnly
    ? cache.awaitOwnWrites(apiVersion, kind, namespace, name, true)
    : cache.awaitOwnWrites(apiVersion, kind, namespace, name);
}
