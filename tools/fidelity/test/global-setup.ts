import { ensureControlPlaneAssets } from '@ops/envtest';

/**
 * Before the end-to-end report runs: builds the real control plane (or finds it current),
 * printing progress, so the test's own timeout never waits for a cold Go build. Fails the
 * run, with what to install, when the binaries cannot be built.
 */
export default async function setup(): Promise<void> {
  await ensureControlPlaneAssets();
}
