// The seeds' YAML applies unchanged: OPERATORS.md's sample MyJob, character for character, and
// a variant leaving out everything the tutorial's PodTemplateSpec leaves optional (the template's
// metadata, the command, restartPolicy), applied with the real kubectl on the control plane of
// `pnpm test` (the local API server's simulated cluster) or `pnpm test:binaries` (kube-apiserver
// with kwok nodes), then run by the operator, as its ServiceAccount under its generated RBAC.
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completedCondition,
  MyJobHarness,
  operatorsMdSample,
  readyCondition,
} from './my-job-harness.js';

/** Only what a Pod needs: a container with a name and an image. */
const onlyRequired = `apiVersion: myjob.github.com/v1beta1
kind: MyJob
metadata: {name: bare}
spec:
  template:
    spec:
      containers:
      - name: main
        image: busybox
`;

let harness: MyJobHarness;
beforeAll(async () => {
  harness = await MyJobHarness.start();
  await harness.startOperator();
}, 180_000);
afterAll(async () => {
  await harness?.stop();
});

describe("the seeds' YAML, applied unchanged with kubectl", () => {
  it("OPERATORS.md's sample: created, its Pod made from the template, completed and Ready", async () => {
    expect(await harness.kubectl(['apply', '-n', 'default', '-f', '-'], operatorsMdSample)).toBe(
      'myjob.myjob.github.com/myjob-sample created\n',
    );
    const pod = await eventually(
      async () => (await harness.pod('myjob-sample').catch(() => undefined)) ?? false,
    );
    expect(pod.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'MyJob', name: 'myjob-sample', controller: true }),
    ]);
    expect(pod.spec?.containers).toEqual([
      expect.objectContaining({
        name: 'pi',
        image: 'perl',
        command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'],
      }),
    ]);
    const done = await harness.completed('myjob-sample');
    expect(done.status).toMatchObject({ phase: 'completed', podPhase: 'Succeeded' });
    expect(completedCondition(done)).toMatchObject({ status: 'True', reason: 'PodSucceeded' });
    expect(readyCondition(done)).toMatchObject({ status: 'True', reason: 'Succeeded' });
  });

  it('without template metadata, command and restartPolicy: its Pod runs (restartPolicy Always), not Ready', async () => {
    expect(await harness.kubectl(['apply', '-n', 'default', '-f', '-'], onlyRequired)).toBe(
      'myjob.myjob.github.com/bare created\n',
    );
    const running = await eventually(
      async () => {
        const job = await harness.myJob('bare');
        return job.status?.phase === 'running' && job;
      },
      { description: 'MyJob bare running', timeoutMs: 30_000 },
    );
    expect(readyCondition(running)).toMatchObject({
      status: 'False',
      reason: 'Running',
      message: 'Pod bare is running',
      observedGeneration: running.metadata.generation,
    });
    const pod = await harness.pod('bare');
    expect(pod.spec?.containers).toEqual([
      expect.objectContaining({ name: 'main', image: 'busybox' }),
    ]);
    expect(pod.metadata?.ownerReferences).toEqual([
      expect.objectContaining({ kind: 'MyJob', name: 'bare', controller: true }),
    ]);
  });
});
