import { events } from '@ops/core';
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlledBy, gone, OperatorHarness, readyCondition } from './operator-harness.js';

let harness: OperatorHarness;
beforeAll(async () => {
  // An Application is ready once its Deployment's Pods are: the local API server simulates
  // them, and on the real control plane this suite gets the cluster plane (kwok nodes), never
  // etcd + kube-apiserver alone. What needs no running Pods is in as-deployed.e2e.test.ts.
  harness = await OperatorHarness.start({ requires: 'pods' });
  await harness.startOperator();
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

const application = (name: string) => harness.application(name);
const deployment = (name: string) => harness.deployment(name);
const create = (name: string, spec: Record<string, unknown>) =>
  harness.createApplication(name, spec);
const patchSpec = (name: string, spec: Record<string, unknown>) => harness.patchSpec(name, spec);

describe('application-operator, end to end', () => {
  it('adds the finalizer, creates an owned Deployment running the image, and becomes ready', async () => {
    await create('demo', { enabled: true, image: 'nginx:1.22' });
    const ready = await eventually(async () => {
      const app = await application('demo');
      return app.status?.ready === true && app;
    });
    expect(ready.metadata.finalizers).toEqual(['lixueduan.com/application']);
    expect(ready.status?.observedGeneration).toBe(ready.metadata.generation);
    expect(readyCondition(ready)).toMatchObject({ status: 'True', reason: 'DeploymentAvailable' });
    const owned = await deployment('demo');
    expect(owned.spec?.replicas).toBe(1);
    expect(owned.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.22');
    expect(owned.metadata?.ownerReferences).toEqual(controlledBy(ready));
    const table = await harness.kubectl(['get', 'applications']);
    expect(table).toMatch(/demo\s+nginx:1\.22\s+true\s+true\s+\d+s/);
  });

  it('rolls a new image out to the Deployment', async () => {
    await patchSpec('demo', { image: 'nginx:1.23' });
    await eventually(
      async () =>
        (await deployment('demo')).spec?.template.spec?.containers[0]?.image === 'nginx:1.23',
    );
    await eventually(async () => {
      const app = await application('demo');
      return (
        app.status?.ready === true && app.status.observedGeneration === app.metadata.generation
      );
    });
  });

  it('scales to zero when disabled and reports not ready, then comes back', async () => {
    await patchSpec('demo', { enabled: false });
    const disabled = await eventually(async () => {
      const app = await application('demo');
      return app.status?.ready === false && readyCondition(app)?.reason === 'Disabled' && app;
    });
    expect(readyCondition(disabled)?.status).toBe('False');
    expect((await deployment('demo')).spec?.replicas).toBe(0);
    await patchSpec('demo', { enabled: true });
    await eventually(async () => (await application('demo')).status?.ready === true);
    expect((await deployment('demo')).spec?.replicas).toBe(1);
  });

  it('fills spec.enabled through the defaulting webhook', async () => {
    await create('defaulted', { image: 'busybox' });
    expect((await application('defaulted')).spec.enabled).toBe(true);
  });

  it('refuses at admission a name whose Deployment name or instance label would be invalid', async () => {
    // 64 characters: kube accepts it as a name, not as the label value the operator sets.
    const name = `long-${'x'.repeat(59)}`;
    await expect(create(name, { image: 'nginx' })).rejects.toThrow(
      `Application name "${name}" (64 characters) cannot be served: its label app.kubernetes.io/instance "${name}" would be invalid: must be no more than 63 characters; use an Application name of at most 63 characters`,
    );
    expect(await gone(() => application(name))).toBe(true);
  });

  it('leaves an unrelated Deployment of the same name alone, and reports the conflict', async () => {
    await harness.admin.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'app-taken', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'other' } },
        template: {
          metadata: { labels: { app: 'other' } },
          spec: { containers: [{ name: 'other', image: 'redis:7' }] },
        },
      },
    });
    await create('taken', { image: 'nginx:1.22' });
    const conflicted = await eventually(async () => {
      const app = await application('taken');
      return readyCondition(app)?.reason === 'DeploymentConflict' && app;
    });
    expect(conflicted.status?.ready).toBe(false);
    expect(readyCondition(conflicted)?.message).toContain('not controlled by Application taken');
    const untouched = await deployment('taken');
    expect(untouched.metadata?.ownerReferences).toBeUndefined();
    expect(untouched.spec?.template.spec?.containers[0]?.image).toBe('redis:7');
    // The Event is recorded after the condition is written, not with it: wait for it too.
    await eventually(async () => {
      const recorded = await harness.admin.list(events, {
        namespace: 'default',
        fieldSelector: 'involvedObject.name=taken',
      });
      return recorded.items.some((e) => e.reason === 'DeploymentConflict');
    });
    // Once the other Deployment is gone, the Application creates its own.
    await harness.admin.delete(untouched);
    await eventually(async () => (await application('taken')).status?.ready === true);
    expect((await deployment('taken')).spec?.template.spec?.containers[0]?.image).toBe(
      'nginx:1.22',
    );
  });

  it('writes nothing while nothing changes', async () => {
    await eventually(async () => (await application('defaulted')).status?.ready === true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = harness.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(harness.writes.slice(settled)).toEqual([]);
  });

  it('deletes the Deployment, then removes the finalizer', async () => {
    await harness.deleteApplication('demo');
    await eventually(() => gone(() => deployment('demo')));
    await eventually(() => gone(() => application('demo')));
  });

  it('converges after an operator restart in the middle of every step', {
    timeout: 120_000,
  }, async () => {
    await harness.stopOperator();
    // While it is down: a new Application, an image change, a disable, and a deletion.
    await create('late', { image: 'nginx:1.24' });
    await patchSpec('taken', { image: 'nginx:1.25' });
    await patchSpec('defaulted', { enabled: false });
    await harness.deleteApplication('taken');
    await harness.startOperator();
    // After a restart: caches synced again, four objects to converge, a Deployment to become
    // available on the cluster plane, and reads that may wait for the operator's own writes
    // (read-your-writes): longer than eventually's default 4 s.
    const afterRestart = { timeoutMs: 30_000 };
    await eventually(async () => (await application('late')).status?.ready === true, afterRestart);
    expect((await application('late')).metadata.finalizers).toEqual(['lixueduan.com/application']);
    await eventually(
      async () =>
        (await deployment('defaulted')).spec?.replicas === 0 &&
        (await application('defaulted')).status?.ready === false,
      afterRestart,
    );
    await eventually(() => gone(() => application('taken')), afterRestart);
    expect(await gone(() => deployment('taken'))).toBe(true);
  });
});
