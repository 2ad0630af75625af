import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import { isObject, type Json } from '../cluster/json.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { RequestContext, ResourceService } from './resource-service.js';

/** The `autoscaling/v1` Scale of an object with `spec.replicas` (its `/scale` subresource). */
export function scaleOf(type: ResourceType, object: KubernetesObject): Json {
  const spec = isObject(object.spec) ? object.spec : {};
  const status = isObject(object.status) ? object.status : {};
  const selector =
    isObject(spec.selector) && isObject(spec.selector.matchLabels)
      ? Object.entries(spec.selector.matchLabels)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',')
      : '';
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: object.metadata?.name,
      namespace: object.metadata?.namespace,
      uid: object.metadata?.uid,
      resourceVersion: object.metadata?.resourceVersion,
      creationTimestamp: object.metadata?.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 0 },
    status: { replicas: status.replicas ?? 0, selector },
    ...(type.kind ? {} : {}),
  };
}

/**
 * Sets `spec.replicas` through the `/scale` subresource (a merge patch of the object) and
 * returns the new Scale; 422 unless `body.spec.replicas` is a non-negative integer.
 */
export async function updateScale(
  resources: ResourceService,
  type: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  context: RequestContext,
): Promise<Json> {
  const replicas = isObject(body) && isObject(body.spec) ? body.spec.replicas : undefined;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw StatusError.invalid({ group: 'autoscaling', resource: 'scale', kind: 'Scale' }, name, [
      {
        type: 'FieldValueInvalid',
        field: 'spec.replicas',
        value: replicas ?? null,
        detail: 'must be greater than or equal to 0',
      },
    ]);
  }
  const updated = await resources.patch(
    type,
    namespace,
    name,
    'merge',
    { spec: { replicas } },
    'scale',
    context,
  );
  return scaleOf(type, updated);
}
