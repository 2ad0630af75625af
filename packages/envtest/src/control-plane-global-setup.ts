import { ensureControlPlaneAssets } from './control-plane-assets.js';
import { controlPlanePoolVariable, startControlPlanePool } from './control-plane-pool.js';
import { resolveControlPlane } from './environment.js';

/**
 * A test runner's global setup for a suite on the real planes (vitest's `globalSetup`: export
 * it as the default, or call it from yours and return what it returns): before any test file
 * starts, finds the binaries of the release `OPS_ENVTEST_KUBERNETES_VERSION` names (or the
 * newest) or builds them, printing progress, so no file's hook waits for a cold build; then,
 * when the suite's plane is `binaries` (`OPS_ENVTEST_CONTROL_PLANE` or `KUBEBUILDER_ASSETS`,
 * as {@link Environment.start} resolves it), starts a {@link startControlPlanePool} and names
 * it in `OPS_ENVTEST_CONTROL_PLANE_POOL` for the files forked after it, so each file's
 * control plane is already started when it asks (`OPS_ENVTEST_CONTROL_PLANE_POOL=off` turns
 * the pool off). Resolves with the teardown, which stops the pool and every plane it started.
 *
 * @throws {ControlPlaneAssetsError} saying what to install when the binaries cannot be built.
 */
export async function setUpControlPlanes(): Promise<() => Promise<void>> {
  // No parameters: vitest calls a global setup with its project.
  const env = process.env;
  const assetsDirectory = env.KUBEBUILDER_ASSETS || (await ensureControlPlaneAssets()).directory;
  if (resolveControlPlane('auto', env) !== 'binaries' || env[controlPlanePoolVariable] === 'off')
    return async () => undefined;
  const pool = await startControlPlanePool({ assetsDirectory });
  return () => pool.close();
}
