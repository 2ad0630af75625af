import { defineConfig } from 'vitest/config';
import { binariesDirectoryTest, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything but test/binaries; `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs test/binaries: the README's "From npm" project's
// own real-plane suite, on the binaries the test command builds beforehand.
export default defineConfig({
  ...sharedConfig,
  test: { ...sharedConfig.test, ...binariesDirectoryTest() },
});
