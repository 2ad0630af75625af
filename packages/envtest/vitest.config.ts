import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything on the local API server but test/binaries; `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the conformance suite and test/binaries on real
// etcd + kube-apiserver, built into .cache when absent.
const binaries = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries';

export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(binaries
      ? {
          include: ['test/conformance/**/*.test.ts', 'test/binaries/**/*.test.ts'],
          // Builds the binaries when absent before any file starts (no hook waits for Go).
          globalSetup: ['./test/binaries/global-setup.ts'],
          // Each file starts its own etcd + kube-apiserver: one at a time on 2 cores.
          fileParallelism: false,
          hookTimeout: 120_000,
        }
      : { exclude: ['test/binaries/**', '**/node_modules/**'] }),
  },
});
