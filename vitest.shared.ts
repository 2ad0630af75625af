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
    // A worker keeps the modules it loaded from one test file to the next instead of loading
    // them again for each (@kubernetes/client-node alone is over a thousand modules): half the
    // CPU of core's and apiserver's unit suites went to those imports. Files still run in
    // their own module scope; what they share is the modules they import, so a test restores
    // what it changes there (fake timers, process.env), as each of ours does.
    isolate: false,
    // The JSON report feeds scripts/test-summary.mjs, which prints the repository's total per
    // Node.js version (the test command runs the published packages on two).
    // A run on the real control plane (OPS_ENVTEST_CONTROL_PLANE=binaries) reports apart, and
    // one on another Kubernetes release than the newest (OPS_ENVTEST_KUBERNETES_VERSION) apart
    // again.
    reporters: ['default', ['json', { outputFile: `test-results/${reportName()}.json` }]],
  },
});

/**
 * The name of this run's JSON report: `vitest-node<version>`, then `-binaries` on the real
 * control plane, then `-kubernetes<release>` when `OPS_ENVTEST_KUBERNETES_VERSION` picks a
 * release (the newest when unset), so each version's results are told apart.
 */
export function reportName(env: NodeJS.ProcessEnv = process.env): string {
  const kubernetes = env.OPS_ENVTEST_KUBERNETES_VERSION?.trim().replace(/^v/, '');
  return `vitest-node${process.versions.node}${isBinariesRun(env) ? '-binaries' : ''}${
    kubernetes ? `-kubernetes${kubernetes}` : ''
  }`;
}

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

/**
 * The test settings of a package whose real-plane suites are the files under test/binaries:
 * `pnpm test:binaries` (`OPS_ENVTEST_CONTROL_PLANE=binaries`) runs only those, `pnpm test`
 * everything else.
 */
export function binariesDirectoryTest(env: NodeJS.ProcessEnv = process.env) {
  return isBinariesRun(env)
    ? { include: ['test/binaries/**/*.test.ts'] }
    : { exclude: ['test/binaries/**', '**/node_modules/**'] };
}
