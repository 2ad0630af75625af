import type { KubeConfig } from '@kubernetes/client-node';
import { Client, createOrUpdate, type KubernetesObject } from '@ops/core';

/**
 * Creates each object in order, or, when it exists, replaces everything but its identity and
 * server-set metadata with what is given (labels and annotations included), as `kubectl
 * apply` of objects the test owns would. Resolves with the objects as the API server stored
 * them.
 *
 * @throws the API server's error (an `ApiError` of `@ops/core`) for the first object it
 *   refuses, e.g. Forbidden or Invalid.
 */
export async function applyObjects(
  kubeConfig: KubeConfig,
  objects: readonly KubernetesObject[],
): Promise<KubernetesObject[]> {
  const client = new Client({ kubeConfig });
  try {
    const applied: KubernetesObject[] = [];
    for (const object of objects) {
      const desired = structuredClone(object) as KubernetesObject & Record<string, unknown>;
      const { object: stored } = await createOrUpdate(client, desired, (live) => {
        const target = live as KubernetesObject & Record<string, unknown>;
        for (const key of Object.keys(target)) {
          if (!['apiVersion', 'kind', 'metadata', 'status'].includes(key)) delete target[key];
        }
        for (const [key, value] of Object.entries(desired)) {
          if (!['apiVersion', 'kind', 'metadata', 'status'].includes(key)) target[key] = value;
        }
        target.metadata = {
          ...target.metadata,
          labels: desired.metadata?.labels ?? {},
          annotations: desired.metadata?.annotations ?? {},
        };
      });
      applied.push(stored);
    }
    return applied;
  } finally {
    client.close();
  }
}
