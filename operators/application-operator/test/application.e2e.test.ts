import { type KubernetesObject, objectKind } from '@ops/core';
import { eventually } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Application, applicationResource } from '../src/api/v1/application.js';
import { OperatorHarness } from './operator-harness.js';

type Deployment = KubernetesObject & {
  spec: {
    replicas: number;
    template: { spec: { containers: Array<{ name: string; image: string }> } };
  };
  status?: { availableReplicas?: number };
};

let harness: OperatorHarness;
beforeAll(async () => {
  harness = await OperatorHarness.start();
  await harness.startOperator();
}, 60_000);
afterAll(async () => {
  await harness?.stop();
});

const api = 'core.crd.lixueduan.com/v1';
const deployments = objectKind<Deployment>('apps/v1', 'Deployment');
const events = objectKind<KubernetesObject & { reason?: string }>('v1', 'Event');
const application = (name: string) => harness.admin.get(applicationResource, name, 'default');
const deployment = (name: string) => harness.admin.get(deployments, `app-${name}`, 'default');
const create = (name: string, spec: Record<string, unknown>) =>
  harness.admin.create({
    apiVersion: api,
    kind: 'Application',
    metadata: { name, namespace: 'default' },
    spec,
  });
const patchSpec = (name: string, spec: Record<string, unknown>) =>
  harness.admin.patch(
    { apiVersion: api, kind: 'Application', metadata: { name, namespace: 'default' } },
    { spec },
    'merge',
  );
const readyCondition = (app: Application) =>
  app.status?.conditions?.find((c) => c.type === 'Ready');
const gone = async (read: () => Promise<unknown>) => {
  try {
    await read();
    return false;
  } catch (error) {
    return (error as { code?: number }).code === 404;
  }
};

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
    expect(owned.spec.replicas).toBe(1);
    expect(owned.spec.template.spec.containers[0]?.image).toBe('nginx:1.22');
    expect(owned.metadata?.ownerReferences).toEqual([
      expect.objectContaining({
        kind: 'Application',
        name: 'demo',
        uid: ready.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      }),
    ]);
    const table = await harness.kubectl(['get', 'applications']);
    expect(table).toMatch(/demo\s+nginx:1\.22\s+true\s+true\s+\d+s/);
  });

  it('rolls a new image out to the Deployment', async () => {
    await patchSpec('demo', { image: 'nginx:1.23' });
    await eventually(
      async () =>
        (await deployment('demo')).spec.template.spec.containers[0]?.image === 'nginx:1.23',
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
    expect((await deployment('demo')).spec.replicas).toBe(0);
    await patchSpec('demo', { enabled: true });
    await eventually(async () => (await application('demo')).status?.ready === true);
    expect((await deployment('demo')).spec.replicas).toBe(1);
  });

  it('denies an invalid image through the validating webhook, with the exact message', async () => {
    const bad =
      'apiVersion: core.crd.lixueduan.com/v1\nkind: Application\nmetadata: {name: bad, namespace: default}\nspec: {image: "Nginx:latest!"}\n';
    const empty = bad.replace('"Nginx:latest!"', '""').replace('name: bad', 'name: empty');
    const { writeFile, mkdtemp } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'bad-app-'));
    await writeFile(join(dir, 'bad.yaml'), bad);
    await writeFile(join(dir, 'empty.yaml'), empty);
    await expect(harness.kubectl(['apply', '-f', join(dir, 'bad.yaml')])).rejects.toThrow(
      'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: Nginx:latest!',
    );
    const denied = await harness.kubectl(['apply', '-f', join(dir, 'empty.yaml')]).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(
      denied.endsWith(
        'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: ',
      ),
    ).toBe(true);
    await expect(patchSpec('demo', { image: 'nginx::1.22' })).rejects.toThrow(
      'invalid image name: nginx::1.22',
    );
  });

  it('fills spec.enabled through the defaulting webhook', async () => {
    await create('defaulted', { image: 'busybox' });
    expect((await application('defaulted')).spec.enabled).toBe(true);
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
    expect(untouched.spec.template.spec.containers[0]?.image).toBe('redis:7');
    const recorded = await harness.admin.list(events, {
      namespace: 'default',
      fieldSelector: 'involvedObject.name=taken',
    });
    expect(recorded.items.some((e) => e.reason === 'DeploymentConflict')).toBe(true);
    // Once the other Deployment is gone, the Application creates its own.
    await harness.admin.delete(untouched);
    await eventually(async () => (await application('taken')).status?.ready === true);
    expect((await deployment('taken')).spec.template.spec.containers[0]?.image).toBe('nginx:1.22');
  });

  it('writes nothing while nothing changes', async () => {
    await eventually(async () => (await application('defaulted')).status?.ready === true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const settled = harness.writes.length;
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(harness.writes.slice(settled)).toEqual([]);
  });

  it('deletes the Deployment, then removes the finalizer', async () => {
    await harness.admin.delete({
      apiVersion: api,
      kind: 'Application',
      metadata: { name: 'demo', namespace: 'default' },
    });
    await eventually(() => gone(() => deployment('demo')));
    await eventually(() => gone(() => application('demo')));
  });

  it('converges after an operator restart in the middle of every step', async () => {
    await harness.stopOperator();
    // While it is down: a new Application, an image change, a disable, and a deletion.
    await create('late', { image: 'nginx:1.24' });
    await patchSpec('taken', { image: 'nginx:1.25' });
    await patchSpec('defaulted', { enabled: false });
    await harness.admin.delete({
      apiVersion: api,
      kind: 'Application',
      metadata: { name: 'taken', namespace: 'default' },
    });
    await harness.startOperator();
    await eventually(async () => (await application('late')).status?.ready === true);
    expect((await application('late')).metadata.finalizers).toEqual(['lixueduan.com/application']);
    await eventually(
      async () =>
        (await deployment('defaulted')).spec.replicas === 0 &&
        (await application('defaulted')).status?.ready === false,
    );
    await eventually(() => gone(() => application('taken')));
    expect(await gone(() => deployment('taken'))).toBe(true);
  });
});
