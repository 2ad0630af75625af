import { ensureControlPlaneAssets } from '@ops/envtest';

/**
 * Before any file of `pnpm test:binaries` starts a control plane: builds the binaries (or
 * finds them current), printing progress, so no test file's hook waits for a cold build.
 * Fails the run, with what to install, when they cannot be built.
 */
export default async function setup(): Promise<void> {
  await ensureControlPlaneAssets();
}
