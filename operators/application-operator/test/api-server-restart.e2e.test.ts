import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperatorHarness } from './operator-harness.js';

// An API server restart under a running operator: the local API server restarts in this
// process at the same address, with the same certificates and tokens and its store kept
// (as kube-apiserver over a kept etcd: connections cut, then refused, watch history lost).
// Local plane only (it restarts the server in process): not in the binaries run.
let harness: OperatorHarness;
beforeAll(async () => {
  harness = await OperatorHarness.start({ requires: 'pods' });
  await harness.startOperator();
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

// After the restart the operator's watches fail and its informers relist. A reconcile's read
// waits for the operator's own last write to show in its cache (read-your-writes); the local
// API server reports 1.35, so core compares resourceVersions and a newer version (the test's
// spec patch right after the operator's write) shows it: no read waits core's 5 s bound (when
// the server reported 1.33 the test took 12.6 and 4.8 s in two runs; now 2.5 and 2.6 s, 2 s of
// it the downtime). The 10 s wait is margin for a loaded machine (at a load average of 23 on
// 2 cores the test took 6.4 s), not for that bound.
const ready = (name: string, image: string) =>
  eventually(
    async () => {
      const app = await harness.application(name);
      const deployment = await harness.deployment(name).catch(() => undefined);
      return (
        app.status?.ready === true &&
        app.status.observedGeneration === app.metadata.generation &&
        deployment?.spec?.template.spec?.containers[0]?.image === image
      );
    },
    { timeoutMs: 10_000 },
  );

describe('application-operator across an API server restart', () => {
  it('converges on changes made after the restart without being restarted itself', {
    timeout: 60_000,
  }, async () => {
    const server = harness.env.server;
    if (server === undefined) throw new Error('this suite needs the local API server');
    await harness.createApplication('survivor', { image: 'nginx:1.22' });
    await ready('survivor', 'nginx:1.22');

    await server.restartListening({ downtimeMs: 2_000 });

    await harness.patchSpec('survivor', { image: 'nginx:1.23' });
    await harness.createApplication('newcomer', { image: 'busybox' });
    await ready('survivor', 'nginx:1.23');
    await ready('newcomer', 'busybox');
    expect((await harness.application('newcomer')).metadata.finalizers).toEqual([
      'lixueduan.com/application',
    ]);
  });
});
