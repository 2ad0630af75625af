import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything on the local API server but test/binaries; `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs test/binaries on real etcd + kube-apiserver, found
// or built into .cache before any file starts. (Spread, not mergeConfig, which would add the
// include lists together.)
const binaries = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries';

export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    // The API server child process runs from dist/: build it before the suite.
    globalSetup: binaries
      ? ['./vitest.global-setup.ts', './test/binaries/global-setup.ts']
      : ['./vitest.global-setup.ts'],
    // Benchmarks compete for 2 cores: one test file at a time keeps them from starving.
    fileParallelism: false,
    testTimeout: 60_000,
    ...(binaries
      ? {
          include: ['test/binaries/**/*.test.ts'],
          // A tiny run of every benchmark starts a fresh etcd + kube-apiserver for each.
          testTimeout: 600_000,
          hookTimeout: 120_000,
        }
      : { exclude: ['test/binaries/**', '**/node_modules/**'] }),
  },
});
