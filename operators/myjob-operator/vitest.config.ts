import { defineConfig } from 'vitest/config';
import { binariesRunTest, isBinariesRun, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs every suite on the local API server. `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the end-to-end suites on the real binaries, built
// into the user's cache first when absent: my-job.e2e.test.ts requires running Pods (requires: 'pods')
// and so gets the cluster plane (kube-apiserver, kube-controller-manager, kube-scheduler, kwok
// nodes that finish Pods by annotation); the controller runs under its generated RBAC, judged
// by kube-apiserver's authorizer.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(isBinariesRun()
      ? binariesRunTest(['test/**/*.e2e.test.ts'], './test/control-plane-setup.ts')
      : {}),
  },
});
