import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything on the local API server but test/binaries and test/cluster;
// `pnpm test:binaries` (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the conformance suite and
// test/binaries on real etcd + kube-apiserver, and test/cluster on a whole cluster with kwok
// nodes (the cluster plane, from the same binaries), built into .cache when absent.
const binaries = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries';

export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(binaries
      ? {
          include: [
            'test/conformance/**/*.test.ts',
            'test/binaries/**/*.test.ts',
            'test/cluster/**/*.test.ts',
          ],
          // Builds the binaries when absent before any file starts (no hook waits for Go).
          globalSetup: ['./test/binaries/global-setup.ts'],
          // Each file starts its own control plane: one at a time on 2 cores.
          fileParallelism: false,
          hookTimeout: 120_000,
        }
      : { exclude: ['test/binaries/**', 'test/cluster/**', '**/node_modules/**'] }),
  },
});
