import { join } from 'node:path';
import type { KubernetesObject } from '@ops/core';
import { Environment, type EnvironmentOptions } from './environment.js';
import type { ServiceAccountIdentity } from './service-account-identity.js';

/** What {@link startOperatorEnvironment} resolves with. */
export interface OperatorEnvironment {
  /** The control plane; stop it with `env.stop()`. */
  env: Environment;
  /** The operator's ServiceAccount under its rendered RBAC (for `startOperatorManager`). */
  identity: ServiceAccountIdentity;
  /** The objects `kubectl kustomize <operatorDir>/config/default` renders. */
  rendered: KubernetesObject[];
}

/**
 * The control plane of an operator's end-to-end suite, for an operator laid out as
 * kubebuilder lays it out: starts an {@link Environment} with RBAC enforced (`apiServer.rbac`
 * on the local server; kube-apiserver always enforces it) and the CRDs of
 * `<operatorDir>/config/crd/bases` installed (with any `crdDirectoryPaths` of `options`, whose
 * other options pass through, `requires: 'pods'` for one), then gives the operator's
 * ServiceAccount under the RBAC `config/default` renders (`env.operatorServiceAccount`).
 *
 * @throws {Error} as `Environment.start` and `env.operatorServiceAccount`; when the account
 *   cannot be made, after stopping the environment it started.
 */
export async function startOperatorEnvironment(
  operatorDir: string,
  options: EnvironmentOptions = {},
): Promise<OperatorEnvironment> {
  const env = await Environment.start({
    ...options,
    apiServer: { ...options.apiServer, rbac: true },
    crdDirectoryPaths: [
      join(operatorDir, 'config', 'crd', 'bases'),
      ...(options.crdDirectoryPaths ?? []),
    ],
  });
  try {
    const { identity, rendered } = await env.operatorServiceAccount(
      join(operatorDir, 'config', 'default'),
    );
    return { env, identity, rendered };
  } catch (error) {
    await env.stop();
    throw error;
  }
}
