import { defineConfig } from 'vitest/config';
import { binariesRunTest, isBinariesRun, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs every suite on the local API server. `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the end-to-end suites on real etcd +
// kube-apiserver, built into the user's cache first when absent: the controller under its generated
// RBAC, judged by kube-apiserver's authorizer.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(isBinariesRun()
      ? binariesRunTest(['test/**/*.e2e.test.ts'], './test/control-plane-setup.ts')
      : {}),
  },
});
