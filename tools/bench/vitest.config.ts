import { defineConfig, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineConfig({
    test: {
      // The API server child process runs from dist/: build it before the suite.
      globalSetup: ['./vitest.global-setup.ts'],
      // Benchmarks compete for 2 cores: one test file at a time keeps them from starving.
      fileParallelism: false,
      testTimeout: 60_000,
    },
  }),
);
