import type { Client, KubernetesObject } from '@ops/core';

/**
 * `objects` with `namespace` set on those of namespaced kinds; those of cluster-scoped kinds
 * (a SidecarSet, a ClusterRole) as they are.
 *
 * @throws {Error} when an object has no apiVersion or kind, or the API server serves no such kind.
 */
export async function inNamespace(
  client: Pick<Client, 'restMapper'>,
  namespace: string,
  objects: readonly KubernetesObject[],
): Promise<KubernetesObject[]> {
  const placed: KubernetesObject[] = [];
  for (const object of objects) {
    if (!object.apiVersion || !object.kind)
      throw new Error(
        `a scenario step's object ${object.metadata?.name ?? '(unnamed)'} has no apiVersion or kind: give both, as in its YAML`,
      );
    const { namespaced } = await client.restMapper.resourceFor(object.apiVersion, object.kind);
    placed.push(namespaced ? { ...object, metadata: { ...object.metadata, namespace } } : object);
  }
  return placed;
}
