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
            process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries' ? '-binaries' : ''
          }.json`,
        },
      ],
    ],
  },
});
