// The upgrade from the release that stored MyJobs as v1beta1 (its CRD: v1beta1 alone, no
// conversion) to this one (v1 stored, v1beta1 served through the conversion webhook), with
// MyJobs already stored: they read in both versions, the operator reconciles them in v1 (a
// completed one stays completed, a new one runs), then @ops/core's migrateStorageVersion
// rewrites them in v1 and v1beta1 leaves the CRD's status.storedVersions. On the local API
// server (`pnpm test`) and kube-apiserver (`pnpm test:binaries`).
import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import { defineCustomResource, type KubernetesObject } from '@ops/core';
import { migrateStorageVersion } from '@ops/core/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MyJob, type MyJobV1beta1, myJobResource } from '../src/api/v1/my-job.js';
import { myJobV1beta1 } from '../src/api/v1beta1/my-job.js';
import { MyJobHarness } from './my-job-harness.js';

const { group, kind, plural, singular, scope, description } = myJobResource.options;
/** The CRD of the release before v1: v1beta1 alone, the storage version, no conversion. */
const beforeUpgrade = defineCustomResource({
  group,
  kind,
  plural,
  singular,
  scope,
  description,
  versions: [{ ...myJobV1beta1, storage: true }],
});

const v1 = 'myjob.github.com/v1';
const v1beta1 = 'myjob.github.com/v1beta1';
const namespace = 'default';
const crdName = myJobResource.name;
const at = '2026-01-01T00:00:04Z';
/** What the release before this one wrote for a MyJob whose Pod failed with exit code 3. */
const finishedStatus: NonNullable<MyJobV1beta1['status']> = {
  phase: 'completed',
  observedGeneration: 1,
  podPhase: 'Failed',
  podUID: 'pod-of-the-earlier-release',
  exitCodes: { main: 3 },
  startTime: '2026-01-01T00:00:01Z',
  completionTime: at,
  conditions: [
    {
      type: 'Completed',
      status: 'True',
      reason: 'PodFailed',
      message: 'Pod finished Failed (exit codes {"main":3})',
      lastTransitionTime: at,
      observedGeneration: 1,
    },
    {
      type: 'Ready',
      status: 'False',
      reason: 'Failed',
      message: 'Pod finished Failed (exit codes {"main":3})',
      lastTransitionTime: at,
      observedGeneration: 1,
    },
  ],
};

let harness: MyJobHarness;
beforeAll(async () => {
  harness = await MyJobHarness.startWith([beforeUpgrade.crd() as unknown as KubernetesObject]);
}, 180_000);
afterAll(async () => {
  await harness?.stop();
});

const read = <T extends KubernetesObject>(apiVersion: string, name: string) =>
  harness.admin.get<T>(apiVersion, 'MyJob', name, namespace);
const storedVersions = async () =>
  (
    await harness.admin.get<KubernetesObject & { status?: { storedVersions?: string[] } }>(
      'apiextensions.k8s.io/v1',
      'CustomResourceDefinition',
      crdName,
    )
  ).status?.storedVersions;

describe('upgrading from the v1beta1-only CRD with MyJobs stored', () => {
  it('keeps the stored MyJobs working in both versions, reconciled in v1, then migrates them to v1', {
    timeout: 120_000,
  }, async () => {
    // Before: the earlier release's CRD, a MyJob it finished and one it never saw.
    const finished = await harness.admin.create<MyJobV1beta1>({
      apiVersion: v1beta1,
      kind: 'MyJob',
      metadata: { name: 'finished', namespace },
      spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
    });
    await harness.admin.updateStatus({ ...finished, status: finishedStatus });
    await harness.createMyJob('waiting', {
      metadata: { annotations: { [podRunDurationAnnotation]: '0s', [podExitCodeAnnotation]: '0' } },
      spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' },
    });
    expect(await storedVersions()).toEqual(['v1beta1']);

    // The upgrade: the two-version CRD, v1 stored, its conversion webhook served.
    await harness.serveConversion();
    expect(await storedVersions()).toEqual(['v1beta1', 'v1']);
    const hub = await read<MyJob>(v1, 'finished');
    const { exitCodes, ...shared } = finishedStatus;
    expect(hub.status).toEqual({ ...shared, containers: [{ name: 'main', exitCode: 3 }] });
    expect((await read<MyJobV1beta1>(v1beta1, 'finished')).status).toEqual(finishedStatus);

    // The operator reconciles v1: the finished MyJob stays as it ended (no Pod is started),
    // the waiting one runs its Pod to completion.
    await harness.startOperator();
    const done = await harness.completed('waiting');
    expect(done.status?.containers).toEqual([{ name: 'main', exitCode: 0 }]);
    await harness.settle();
    expect(await harness.podGone('finished')).toBe(true);
    expect((await read<MyJob>(v1, 'finished')).status).toEqual(hub.status);

    // Storage migration: every MyJob rewritten in v1, v1beta1 out of storedVersions; both
    // versions still read the same.
    const migration = await migrateStorageVersion(harness.admin, crdName, { method: 'rewrite' });
    expect(migration).toMatchObject({
      storageVersion: 'v1',
      previousStoredVersions: ['v1beta1', 'v1'],
      storedVersions: ['v1'],
    });
    expect(migration.rewritten).toBeGreaterThanOrEqual(2);
    expect(await storedVersions()).toEqual(['v1']);
    expect((await read<MyJob>(v1, 'finished')).status).toEqual(hub.status);
    expect((await read<MyJobV1beta1>(v1beta1, 'finished')).status).toEqual(finishedStatus);
    expect((await read<MyJobV1beta1>(v1beta1, 'waiting')).status?.exitCodes).toEqual({ main: 0 });
  });
});
