// MyJob's two versions end to end: v1 is stored and reconciled, v1beta1 is served through the
// operator's conversion webhook (src/webhook/my-job-conversion.ts), which the API server calls
// for every request in v1beta1 — the local API server on `pnpm test`, kube-apiserver on
// `pnpm test:binaries`. v1 differs in one field: v1beta1's `status.exitCodes` map is v1's
// `status.containers` list. OPERATORS.md's sample applies verbatim, in v1beta1, with kubectl,
// and reads back the same.
import { podExitCodeAnnotation, podRunDurationAnnotation } from '@ops/apiserver';
import type { KubernetesObject } from '@ops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { MyJob, MyJobV1beta1 } from '../src/api/v1/my-job.js';
import { MyJobHarness, operatorsMdSample } from './my-job-harness.js';

const v1 = 'myjob.github.com/v1';
const v1beta1 = 'myjob.github.com/v1beta1';
const namespace = 'default';

let harness: MyJobHarness;
beforeAll(async () => {
  harness = await MyJobHarness.start();
  await harness.startOperator();
}, 180_000);
afterAll(async () => {
  await harness?.stop();
});

/** MyJob `name` as the admin reads it in `apiVersion`. */
const read = <T extends KubernetesObject>(apiVersion: string, name: string) =>
  harness.admin.get<T>(apiVersion, 'MyJob', name, namespace);

/** The MyJob `name` read with kubectl in `version` (`myjobs.<version>.myjob.github.com`). */
async function kubectlGet(version: string, name: string): Promise<KubernetesObject & MyJob> {
  const json = await harness.kubectl([
    'get',
    `myjobs.${version}.myjob.github.com`,
    name,
    '-n',
    namespace,
    '-o',
    'json',
  ]);
  return JSON.parse(json) as KubernetesObject & MyJob;
}

describe('MyJob v1beta1 and v1, converted by the operator', () => {
  it("OPERATORS.md's sample, applied in v1beta1 with kubectl, reads back the same in v1beta1 and in v1", async () => {
    expect(await harness.kubectl(['apply', '-n', namespace, '-f', '-'], operatorsMdSample)).toBe(
      'myjob.myjob.github.com/myjob-sample created\n',
    );
    const applied = YAML.parse(operatorsMdSample) as { spec: unknown };
    const beta = await kubectlGet('v1beta1', 'myjob-sample');
    expect(beta.apiVersion).toBe(v1beta1);
    expect(beta.spec).toEqual(applied.spec);
    const hub = await kubectlGet('v1', 'myjob-sample');
    expect(hub.apiVersion).toBe(v1);
    expect(hub.spec).toEqual(applied.spec);
    // Nothing of the conversion shows in the metadata: it is lossless, no annotation is added.
    expect(Object.keys(beta.metadata.annotations ?? {})).toEqual([
      'kubectl.kubernetes.io/last-applied-configuration',
    ]);
    expect(hub.metadata.annotations).toEqual(beta.metadata.annotations);

    // Applying it again changes nothing: kubectl compares in v1beta1, through the webhook.
    expect(await harness.kubectl(['apply', '-n', namespace, '-f', '-'], operatorsMdSample)).toBe(
      'myjob.myjob.github.com/myjob-sample unchanged\n',
    );
    const done = await harness.completed('myjob-sample');
    expect(done.status?.containers).toEqual([{ name: 'pi', exitCode: 0 }]);
    const doneBeta = await kubectlGet('v1beta1', 'myjob-sample');
    const { containers, ...shared } = done.status ?? {};
    expect(doneBeta.status).toEqual({ ...shared, exitCodes: { pi: 0 } });
  });

  it('creates in v1beta1, reads in v1 and back; a write in v1beta1 keeps the v1 status', async () => {
    await harness.createMyJob('fails', {
      metadata: {
        annotations: { [podRunDurationAnnotation]: '0s', [podExitCodeAnnotation]: '3' },
      },
      spec: { containers: [{ name: 'main', image: 'busybox' }], restartPolicy: 'Never' },
    });
    const done = await harness.completed('fails');
    expect(done.apiVersion).toBe(v1);
    expect(done.status).toMatchObject({
      podPhase: 'Failed',
      containers: [{ name: 'main', exitCode: 3 }],
    });
    expect(done.status).not.toHaveProperty('exitCodes');

    const beta = await read<MyJobV1beta1>(v1beta1, 'fails');
    expect(beta.apiVersion).toBe(v1beta1);
    expect(beta.spec).toEqual(done.spec);
    const { containers, ...shared } = done.status ?? {};
    expect(beta.status).toEqual({ ...shared, exitCodes: { main: 3 } });
    expect(beta.metadata.resourceVersion).toBe(done.metadata.resourceVersion);

    // An update in v1beta1 (a label added) goes to storage through toHub: v1 sees the label,
    // and the status written in v1 is unchanged.
    const labelled = await harness.admin.update<MyJobV1beta1>({
      ...beta,
      metadata: { ...beta.metadata, labels: { team: 'e2e' } },
    });
    expect(labelled.apiVersion).toBe(v1beta1);
    expect(labelled.status).toEqual(beta.status);
    const after = await read<MyJob>(v1, 'fails');
    expect(after.metadata.labels).toEqual({ team: 'e2e' });
    expect(after.status).toEqual(done.status);
  });

  it('lists in both versions, each object in the version asked for', async () => {
    const [inV1, inV1beta1] = await Promise.all([
      harness.admin.list<MyJob>(v1, 'MyJob', { namespace }),
      harness.admin.list<MyJobV1beta1>(v1beta1, 'MyJob', { namespace }),
    ]);
    const names = (list: { items: KubernetesObject[] }) =>
      list.items.map((item) => item.metadata?.name).sort();
    expect(names(inV1)).toEqual(['fails', 'myjob-sample']);
    expect(names(inV1beta1)).toEqual(names(inV1));
    expect(new Set(inV1.items.map((item) => item.apiVersion))).toEqual(new Set([v1]));
    expect(new Set(inV1beta1.items.map((item) => item.apiVersion))).toEqual(new Set([v1beta1]));
    const fails = inV1beta1.items.find((item) => item.metadata.name === 'fails');
    expect(fails?.status?.exitCodes).toEqual({ main: 3 });
  });
});
