import { defineConfig } from 'vitest/config';
import { binariesRunTest, isBinariesRun, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs every suite on the local API server. `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs the end-to-end suites that need no running Pods
// on real etcd + kube-apiserver, built into .cache first when absent: the operator under its
// generated RBAC, its webhooks called by kube-apiserver. application.e2e.test.ts needs running
// Pods and refuses that plane (requires: 'pods'); it joins this list on a control plane that
// runs Pods.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(isBinariesRun()
      ? binariesRunTest(
          ['test/as-deployed.e2e.test.ts', 'test/self-managed-certs.e2e.test.ts'],
          './test/control-plane-setup.ts',
        )
      : {}),
  },
});
