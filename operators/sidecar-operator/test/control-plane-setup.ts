import { ensureControlPlaneAssets } from '@ops/envtest';

/**
 * Before any file of `pnpm test:binaries` starts a control plane: builds the real binaries
 * (etcd, kube-apiserver, ...) with Go into the user's cache, or finds them current, printing progress,
 * so no test's hook waits for a cold build. Fails the run, saying what to install, when they
 * cannot be built.
 */
export default async function setup(): Promise<void> {
  await ensureControlPlaneAssets();
}
