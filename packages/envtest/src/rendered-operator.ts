import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { KubernetesObject } from '@ops/api';
import { parseManifests } from './load-manifests.js';
import { managerPodOf, operatorNamespaceOf } from './pod-security.js';

const run = promisify(execFile);

/** An operator's kustomize config as `kubectl kustomize` renders it for a cluster. */
export interface RenderedOperator {
  /** Every object of the rendered install, in order. */
  objects: KubernetesObject[];
  /** The ServiceAccount its manager Deployment runs as. */
  serviceAccount: { namespace: string; name: string };
  /**
   * The namespace the manager runs in, as the test creates it: the rendered Namespace's
   * labels, with `pod-security.kubernetes.io/enforce: restricted` unless it sets that label
   * ({@link operatorNamespaceOf}).
   */
  namespace: KubernetesObject;
  /** A Pod made from the manager Deployment's Pod template ({@link managerPodOf}). */
  managerPod: KubernetesObject;
}

/**
 * Renders `configDir` (an operator's `config/default`, or another overlay) with `kubectl
 * kustomize` (`kubectl`: default `$KUBECTL`, then `kubectl` on the PATH) and finds the
 * ServiceAccount its Deployment runs as (the operator's identity in a cluster), the
 * namespace it runs in and the Pod its Deployment makes.
 *
 * @throws {Error} naming the directory when kubectl fails (its stderr included), or when
 * the install holds no Deployment, or more than one, naming a ServiceAccount.
 */
export async function renderOperator(
  configDir: string,
  kubectl: string = process.env.KUBECTL || 'kubectl',
): Promise<RenderedOperator> {
  let stdout: string;
  try {
    ({ stdout } = await run(kubectl, ['kustomize', configDir], { maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(
      `kubectl kustomize ${configDir} failed: ${(failure.stderr || failure.message).trim()}`,
    );
  }
  const objects = parseManifests(stdout, configDir);
  const accounts = objects.flatMap((object) => {
    if (object.kind !== 'Deployment') return [];
    const spec = (object as { spec?: { template?: { spec?: { serviceAccountName?: string } } } })
      .spec;
    const name = spec?.template?.spec?.serviceAccountName;
    const namespace = object.metadata?.namespace;
    return name && namespace ? [{ namespace, name, deployment: object }] : [];
  });
  const account = accounts[0];
  if (accounts.length !== 1 || account === undefined) {
    throw new Error(
      `kubectl kustomize ${configDir} renders ${accounts.length} Deployments with a serviceAccountName and a namespace; expected the operator's one manager Deployment`,
    );
  }
  const { deployment, ...serviceAccount } = account;
  return {
    objects,
    serviceAccount,
    namespace: operatorNamespaceOf(objects, account.namespace),
    managerPod: managerPodOf(deployment),
  };
}
