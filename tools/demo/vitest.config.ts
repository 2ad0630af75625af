import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs the demo on the local API server; `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs `--real` on envtest's cluster plane.
const binaries = process.env.OPS_ENVTEST_CONTROL_PLANE === 'binaries';

export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(binaries
      ? { include: ['test/demo-real.test.ts'], hookTimeout: 120_000 }
      : { exclude: ['test/demo-real.test.ts', '**/node_modules/**'] }),
  },
});
