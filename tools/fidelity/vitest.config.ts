import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs the unit tests of src/; `pnpm test:binaries` (OPS_ENVTEST_CONTROL_PLANE=binaries)
// runs the report end to end in test/, against the real kube-apiserver built into .cache.
const binaries = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries';

export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(binaries
      ? {
          include: ['test/**/*.test.ts'],
          // Builds the binaries when absent before the test starts (no hook waits for Go).
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 180_000,
        }
      : { include: ['src/**/*.test.ts'] }),
  },
});
