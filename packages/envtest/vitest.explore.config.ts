import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// Exploration mode (`pnpm explore <scenario>` at the repository root): one long run of
// test/explore/exploration-mode.explore.ts on the scenario the environment names. Not part
// of `pnpm test`, whose quick mode runs in test/explore/*.test.ts.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    include: ['test/explore/exploration-mode.explore.ts'],
    testTimeout: 0,
    hookTimeout: 0,
  },
});
