import { defineConfig } from 'vitest/config';
import { binariesRunTest, isBinariesRun, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything on the local API server but test/binaries; `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the conformance suite and test/binaries on real
// etcd + kube-apiserver, built into .cache when absent.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(isBinariesRun()
      ? binariesRunTest(
          ['test/conformance/**/*.test.ts', 'test/binaries/**/*.test.ts'],
          './test/binaries/global-setup.ts',
        )
      : { exclude: ['test/binaries/**', '**/node_modules/**'] }),
  },
});
