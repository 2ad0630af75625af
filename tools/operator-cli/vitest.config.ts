import { defineConfig } from 'vitest/config';
import { binariesDirectoryTest, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs everything but test/binaries on the local API server; `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs test/binaries: a scaffolded operator's own suite
// on real etcd + kube-apiserver, which the test command builds into .cache beforehand.
export default defineConfig({
  ...sharedConfig,
  test: { ...sharedConfig.test, ...binariesDirectoryTest() },
});
