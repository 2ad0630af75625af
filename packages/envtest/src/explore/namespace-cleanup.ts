import type { KubeConfig } from '@kubernetes/client-node';
import { eventually } from '../eventually.js';
import { kubeRequest } from '../kube-request.js';

/** A namespaced resource the API server serves, as discovery names it. */
export interface NamespacedResource {
  /** `/api/v1` or `/apis/<group>/<version>`. */
  groupVersionPath: string;
  /** The plural (`configmaps`). */
  plural: string;
}

interface DiscoveredResource {
  name: string;
  namespaced: boolean;
  verbs?: string[];
}

/**
 * Every namespaced resource the API server serves that can be listed and deleted (in each
 * group's preferred version; subresources left out): what a namespace holds.
 *
 * @throws {Error} quoting the API server when discovery fails.
 */
export async function namespacedResources(kubeConfig: KubeConfig): Promise<NamespacedResource[]> {
  const paths = ['/api/v1'];
  const groups = await kubeRequest(kubeConfig, 'GET', '/apis');
  if (groups.status !== 200)
    throw new Error(
      `API discovery (/apis) failed: ${groups.status} ${JSON.stringify(groups.body)}`,
    );
  for (const group of (
    groups.body as { groups?: Array<{ preferredVersion?: { groupVersion?: string } }> }
  ).groups ?? []) {
    const groupVersion = group.preferredVersion?.groupVersion;
    if (groupVersion) paths.push(`/apis/${groupVersion}`);
  }
  const resources: NamespacedResource[] = [];
  for (const groupVersionPath of paths) {
    const answer = await kubeRequest(kubeConfig, 'GET', groupVersionPath);
    // A group whose aggregated server is unavailable has nothing this cleanup can reach.
    if (answer.status !== 200) continue;
    for (const resource of (answer.body as { resources?: DiscoveredResource[] }).resources ?? []) {
      const verbs = resource.verbs ?? [];
      if (!resource.namespaced || resource.name.includes('/')) continue;
      if (!verbs.includes('list') || !verbs.includes('delete')) continue;
      resources.push({ groupVersionPath, plural: resource.name });
    }
  }
  return resources;
}

interface ListedObject {
  metadata?: { name?: string; finalizers?: string[] };
}

/**
 * Removes namespace `namespace` and everything in it, as the namespace controller of
 * kube-controller-manager would, on a plane that may have none (`binaries`) and without
 * waiting on finalizers that only the stopped operator would remove:
 *
 * 1. the namespace is deleted first (Terminating: nothing new can be created in it, so no
 *    controller still running refills it);
 * 2. every object of `resources` in it loses its finalizers and is deleted without a grace
 *    period, again until every list comes back empty;
 * 3. the namespace's own `kubernetes` finalizer is removed (its `/finalize` subresource),
 *    it is deleted again (which now removes it), and waited for until it is gone.
 *
 * Resolves once the namespace no longer exists: an operator started after it sees nothing
 * of it (its cluster-wide watches list none of its objects).
 *
 * @throws {Error} naming what is left when the namespace is not gone within `timeoutMs`.
 */
export async function removeNamespace(
  kubeConfig: KubeConfig,
  namespace: string,
  resources: readonly NamespacedResource[],
  timeoutMs: number,
): Promise<void> {
  const base = `/api/v1/namespaces/${namespace}`;
  // An API server that is restarting (a perturbation of the run) is waited for.
  const deleted = await eventually(() => kubeRequest(kubeConfig, 'DELETE', base), {
    timeoutMs,
    intervalMs: 100,
    description: `kube-apiserver reachable to delete namespace ${namespace}`,
  });
  if (deleted.status === 404) return;
  if (deleted.status >= 300)
    throw new Error(
      `could not delete namespace ${namespace}: ${deleted.status} ${JSON.stringify(deleted.body)}`,
    );
  await eventually(
    async () => {
      const left: string[] = [];
      for (const { groupVersionPath, plural } of resources) {
        const path = `${groupVersionPath}/namespaces/${namespace}/${plural}`;
        const listed = await kubeRequest(kubeConfig, 'GET', path);
        if (listed.status !== 200) continue;
        for (const item of (listed.body as { items?: ListedObject[] }).items ?? []) {
          const name = item.metadata?.name ?? '';
          left.push(`${plural}/${name}`);
          if ((item.metadata?.finalizers ?? []).length > 0)
            await kubeRequest(
              kubeConfig,
              'PATCH',
              `${path}/${name}`,
              { metadata: { finalizers: null } },
              { contentType: 'application/merge-patch+json' },
            );
          await kubeRequest(kubeConfig, 'DELETE', `${path}/${name}`, {
            apiVersion: 'v1',
            kind: 'DeleteOptions',
            gracePeriodSeconds: 0,
          });
        }
      }
      if (left.length > 0) throw new Error(`still in it: ${left.slice(0, 10).join(', ')}`);
      const current = await kubeRequest(kubeConfig, 'GET', base);
      if (current.status === 404) return true;
      const spec = (current.body as { spec?: { finalizers?: string[] } }).spec;
      if ((spec?.finalizers ?? []).length > 0)
        await kubeRequest(kubeConfig, 'PUT', `${base}/finalize`, {
          ...(current.body as object),
          spec: { ...spec, finalizers: [] },
        });
      // As the namespace controller does once it has finalized: delete it again, which now
      // removes it (a namespace whose finalizers are done).
      await kubeRequest(kubeConfig, 'DELETE', base);
      const after = await kubeRequest(kubeConfig, 'GET', base);
      if (after.status !== 404) throw new Error('the namespace still exists');
      return true;
    },
    { timeoutMs, intervalMs: 100, description: `namespace ${namespace} and its objects gone` },
  );
}
