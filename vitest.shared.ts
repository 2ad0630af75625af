import { defineConfig } from 'vitest/config';

/**
 * The vitest settings every workspace package shares. The `@ops/source` export condition
 * makes a workspace package's imports of another resolve to its TypeScript source, so tests
 * run without building dependencies first.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@ops/source'] },
  ssr: { resolve: { conditions: ['@ops/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The JSON report feeds scripts/test-summary.mjs, which prints the repository's total per
    // Node.js version (the test command runs the published packages on two).
    // A run on the real control plane (OPS_ENVTEST_CONTROL_PLANE=binaries) reports apart.
    reporters: [
      'default',
      [
        'json',
        {
          outputFile: `test-results/vitest-node${process.versions.node}${
            isBinariesRun() ? '-binaries' : ''
          }.json`,
        },
      ],
    ],
  },
});

/** Whether this run is a package's `test:binaries` (`OPS_ENVTEST_CONTROL_PLANE=binaries`). */
export function isBinariesRun(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.OPS_ENVTEST_CONTROL_PLANE === 'binaries';
}

/**
 * The test settings of a package's `test:binaries` run, on real etcd + kube-apiserver: only
 * the files of `include`; `globalSetup` (a file calling `ensureControlPlaneAssets()` of
 * `@ops/envtest`) builds or finds the binaries before any file starts, so no hook waits for a
 * cold build; one file at a time, since each starts its own etcd + kube-apiserver.
 */
export function binariesRunTest(include: string[], globalSetup: string) {
  return { include, globalSetup: [globalSetup], fileParallelism: false, hookTimeout: 120_000 };
}
