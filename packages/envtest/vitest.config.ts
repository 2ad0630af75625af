import { defineConfig } from 'vitest/config';
import { binariesRunTest, isBinariesRun, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything on the local API server but test/binaries and test/cluster;
// `pnpm test:binaries` (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the conformance suite and
// test/binaries on real etcd + kube-apiserver, and test/cluster on a whole cluster with kwok
// nodes (the cluster plane, from the same binaries), built into the user's cache when absent.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(isBinariesRun()
      ? binariesRunTest(
          [
            'test/conformance/**/*.test.ts',
            'test/binaries/**/*.test.ts',
            'test/cluster/**/*.test.ts',
          ],
          './test/binaries/global-setup.ts',
        )
      : { exclude: ['test/binaries/**', 'test/cluster/**', '**/node_modules/**'] }),
  },
});
