import { storageKeyOf } from '../registry/resource-type.js';
import { createBootstrapObjects } from './access/bootstrap-policy.js';
import type { ApiServer } from './api-server.js';

const crdKey = 'apiextensions.k8s.io/customresourcedefinitions';

/**
 * Empties a server's store as if its etcd were wiped and the server started on it: every
 * object gone (custom resources stop being served with their CRDs), resourceVersions start
 * over from 1, the bootstrap namespaces and RBAC policy are made again, and history starts
 * after them. Tokens, certificates and the simulated cluster's controllers stay. Clients that
 * resume from a resourceVersion of the old store get 410 (older than the new history) or
 * "Too large resource version" (newer than the new store), and must relist.
 *
 * Assumes: every watch was ended first.
 */
export async function resetStore(server: ApiServer): Promise<void> {
  for (const crd of server.store.list(crdKey))
    for (const removed of server.registry.removeCustomResource(crd.object.metadata?.name ?? ''))
      server.store.dropResource(storageKeyOf(removed));
  server.store.reset();
  await createBootstrapObjects(server.resources, (group, plural) => {
    const type = server.registry.findAnyVersion(group, plural);
    if (type === undefined) throw new Error(`no built-in resource ${group}/${plural}`);
    return type;
  });
  server.store.compact(server.store.currentRevision());
}
