import { defineConfig } from 'vitest/config';
import { binariesRunTest, isBinariesRun, sharedConfig } from '../../vitest.shared.js';

// `pnpm test` runs every suite on the local API server. `pnpm test:binaries`
// (OPS_ENVTEST_CONTROL_PLANE=binaries) runs them on the real control plane, built into the user's cache
// first when absent: the operator under its generated RBAC, its webhooks called by
// kube-apiserver. application.e2e.test.ts requires running Pods (requires: 'pods') and so
// gets the cluster plane (kube-controller-manager, kube-scheduler, kwok nodes); the others
// get etcd + kube-apiserver.
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    ...(isBinariesRun()
      ? binariesRunTest(
          [
            'test/application.e2e.test.ts',
            'test/as-deployed.e2e.test.ts',
            'test/explore.e2e.test.ts',
            'test/helm-chart.e2e.test.ts',
            'test/self-managed-certs.e2e.test.ts',
            'test/sharded-by-namespace.e2e.test.ts',
            'test/seed-yaml.e2e.test.ts',
          ],
          './test/control-plane-setup.ts',
        )
      : {}),
  },
});
