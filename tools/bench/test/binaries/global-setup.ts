import { ensureControlPlaneAssets } from '@ops/envtest';

/**
 * Before any file of `pnpm test:binaries` starts a server: finds the real binaries, or builds
 * them with Go (printing progress), so no test waits for a cold build in its timeout. Fails
 * the run, saying what to install, when they cannot be built. `KUBEBUILDER_ASSETS`, when set,
 * is used as it is.
 */
export default async function setup(): Promise<void> {
  if (!process.env.KUBEBUILDER_ASSETS) await ensureControlPlaneAssets();
}
