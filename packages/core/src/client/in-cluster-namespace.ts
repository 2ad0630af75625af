import { readFileSync } from 'node:fs';

/** Where a Pod's ServiceAccount token mount names the Pod's namespace. */
const serviceAccountNamespaceFile = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * The namespace of the Pod this process runs in, from its ServiceAccount mount; `undefined`
 * outside a cluster (no such file, or an empty one).
 */
export function inClusterNamespace(file: string = serviceAccountNamespaceFile): string | undefined {
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
