import { isJsonObject } from '@ops/api';
/**
 * The checks kube-apiserver makes on the body of a server-side apply before merging it
 * (staging apimachinery managedfields/internal/structuredmerge.go and the PATCH handler).
 */
import { StatusError } from '../api/status-error.js';
import { apiVersionOf, type ResourceType } from '../registry/resource-type.js';

/**
 * `body` as an applied configuration for the object `name` in `namespace` of `type`.
 *
 * @throws {StatusError} 400 when it is not an object, its `apiVersion` or `kind` is not the one
 *   served (`invalid object type: ex.com/v2, Kind=Widget`), its name or namespace differ
 *   from the request's, or it sets `metadata.managedFields` (which appliers never send).
 */
export function checkAppliedConfiguration(
  type: ResourceType,
  body: unknown,
  namespace: string,
  name: string,
): Record<string, unknown> {
  if (!isJsonObject(body)) {
    throw StatusError.badRequest(
      'the body of a server-side apply must be an object (YAML or JSON) with apiVersion, kind and metadata.name',
    );
  }
  const expected = apiVersionOf(type);
  if (body.apiVersion !== expected || body.kind !== type.kind) {
    const apiVersion = typeof body.apiVersion === 'string' ? body.apiVersion : '';
    const groupVersion = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
    throw StatusError.badRequest(
      `invalid object type: ${groupVersion}, Kind=${typeof body.kind === 'string' ? body.kind : ''}`,
    );
  }
  const metadata = body.metadata;
  if (metadata !== undefined && !isJsonObject(metadata)) {
    throw StatusError.badRequest('metadata must be an object');
  }
  if (metadata?.managedFields !== undefined && metadata.managedFields !== null) {
    throw StatusError.badRequest('metadata.managedFields must be nil');
  }
  if (metadata?.name !== undefined && metadata.name !== name) {
    throw StatusError.badRequest(
      `the name of the object (${String(metadata.name)}) does not match the name on the URL (${name})`,
    );
  }
  if (
    type.namespaced &&
    typeof metadata?.namespace === 'string' &&
    metadata.namespace !== '' &&
    metadata.namespace !== namespace
  ) {
    throw StatusError.badRequest(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  }
  return {
    ...body,
    metadata: {
      ...(metadata ?? {}),
      name,
      ...(type.namespaced ? { namespace } : {}),
    },
  };
}
