import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import {
  applyToObject,
  checkAppliedConfiguration,
  ListItemError,
  type ManagedFieldsEntry,
  patchOptionsInvalid,
  writeScopeOf,
} from '../../apply/index.js';
import { objectKey, type ResourceType, storageKeyOf } from '../../registry/resource-type.js';
import type { RequestContext, ResourceService } from './resource-service.js';
import { presentAt } from './version-conversion.js';

/**
 * Server-side apply (PATCH `application/apply-patch+yaml`) through `service`: merges the
 * configuration into the object, or creates the object from it when absent (`created`
 * true: a 201), recording the applier's fields; every rule of a create or update applies
 * (admission, validation, dry run). Needs `context.fieldManager` (422 without); conflicts
 * with other managers are a 409 unless `context.force`. A configuration that cannot be typed
 * (a keyed list item without its keys) is a 500, as kube-apiserver answers it.
 */
export async function serverSideApply(
  service: ResourceService,
  type: ResourceType,
  namespace: string,
  name: string,
  body: unknown,
  subresource: string,
  context: RequestContext,
): Promise<{ object: KubernetesObject; created: boolean }> {
  if (!context.fieldManager) {
    throw patchOptionsInvalid('fieldManager', 'Required value: is required for apply patch');
  }
  const config = checkAppliedConfiguration(type, body, namespace, name);
  const write = writeScopeOf(context, subresource, service.now());
  const force = context.force ?? false;
  const typed = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      if (!ListItemError.isInstance(error)) throw error;
      const gvk = `${type.group}/${type.version}, Kind=${type.kind}`;
      throw new StatusError(
        500,
        'InternalError',
        `failed to create typed patch object (/${name}; ${gvk}): ${error.message}`,
      );
    }
  };
  const key = objectKey(type.namespaced ? namespace : undefined, name);
  if (service.store.get(storageKeyOf(type), key) === undefined) {
    if (subresource) throw StatusError.notFound(type, name);
    const applied = typed(() => applyToObject(type, undefined, config, force, write));
    try {
      const object = await service.create(
        type,
        namespace,
        applied.object,
        context,
        applied.managedFields,
      );
      return { object, created: true };
    } catch (error) {
      // Created meanwhile by someone else: apply to theirs, as kube retries.
      if (!(StatusError.isInstance(error) && error.reason === 'AlreadyExists')) throw error;
    }
  }
  let recorded: ManagedFieldsEntry[] = [];
  const object = await service.guaranteedUpdate(
    type,
    namespace,
    name,
    subresource,
    context,
    undefined,
    (current) => {
      // Already at the request's version when the CRD's webhook converted it.
      const live = presentAt(type, current);
      const applied = typed(() => applyToObject(type, live, config, force, write));
      recorded = applied.managedFields;
      return applied.object as KubernetesObject;
    },
    () => recorded,
  );
  return { object, created: false };
}
