// The operator as deployed, for everything that needs no running Pods, so it runs on every
// control plane (`pnpm test` on the local API server, `pnpm test:binaries` on real etcd +
// kube-apiserver): the manager as its ServiceAccount under the RBAC config/default renders,
// with a token the API server issued, and the generated webhook configurations called by the
// API server (by URL, on the loopback address). An Application's readiness needs running Pods
// and is in application.e2e.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, kubeRequest } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlledBy, gone, OperatorHarness, readyCondition } from './operator-harness.js';

let harness: OperatorHarness;
let scratch: string;
beforeAll(async () => {
  harness = await OperatorHarness.start();
  await harness.startOperator();
  scratch = await mkdtemp(join(tmpdir(), 'application-operator-as-deployed-'));
}, 60_000);
afterAll(async () => {
  await harness?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('application-operator as deployed (no running Pods needed)', () => {
  it('creates an owned Deployment as its ServiceAccount, spec.enabled defaulted by the mutating webhook', async () => {
    await harness.createApplication('owned', { image: 'nginx:1.22' });
    const app = await harness.application('owned');
    expect(app.spec.enabled).toBe(true);
    const reconciled = await eventually(async () => {
      const current = await harness.application('owned');
      return current.status?.observedGeneration === current.metadata.generation && current;
    });
    expect(reconciled.metadata.finalizers).toEqual(['lixueduan.com/application']);
    expect(readyCondition(reconciled)?.type).toBe('Ready');
    const owned = await harness.deployment('owned');
    expect(owned.spec?.replicas).toBe(1);
    expect(owned.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.22');
    expect(owned.metadata?.ownerReferences).toEqual(controlledBy(app));
  });

  it('reports a disabled Application not ready, its Deployment scaled to zero', async () => {
    await harness.patchSpec('owned', { enabled: false });
    const disabled = await eventually(async () => {
      const current = await harness.application('owned');
      return readyCondition(current)?.reason === 'Disabled' && current;
    });
    expect(disabled.status?.ready).toBe(false);
    expect(readyCondition(disabled)).toMatchObject({
      status: 'False',
      message: 'spec.enabled is false: the Deployment is scaled to zero',
    });
    expect((await harness.deployment('owned')).spec?.replicas).toBe(0);
  });

  it('denies an invalid image through the validating webhook, with the exact message', async () => {
    const bad =
      'apiVersion: core.crd.lixueduan.com/v1\nkind: Application\nmetadata: {name: bad, namespace: default}\nspec: {image: "Nginx:latest!"}\n';
    const empty = bad.replace('"Nginx:latest!"', '""').replace('name: bad', 'name: empty');
    await writeFile(join(scratch, 'bad.yaml'), bad);
    await writeFile(join(scratch, 'empty.yaml'), empty);
    await expect(harness.kubectl(['apply', '-f', join(scratch, 'bad.yaml')])).rejects.toThrow(
      'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: Nginx:latest!',
    );
    const denied = await harness.kubectl(['apply', '-f', join(scratch, 'empty.yaml')]).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(
      denied.endsWith(
        'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name: ',
      ),
    ).toBe(true);
    await expect(harness.patchSpec('owned', { image: 'nginx::1.22' })).rejects.toThrow(
      'invalid image name: nginx::1.22',
    );
  });

  it('is refused by the API server what its generated role does not grant', async () => {
    const secrets = await kubeRequest(
      harness.identity.kubeConfig,
      'GET',
      '/api/v1/namespaces/default/secrets',
    );
    expect(secrets.status).toBe(403);
    expect((secrets.body as { message: string }).message).toBe(
      'secrets is forbidden: User "system:serviceaccount:application-operator-system:application-operator-controller-manager" cannot list resource "secrets" in API group "" in the namespace "default"',
    );
    // Its role lists and watches Deployments but never reads one by name (the cache does).
    const get = await kubeRequest(
      harness.identity.kubeConfig,
      'GET',
      '/apis/apps/v1/namespaces/default/deployments/app-owned',
    );
    expect(get.status).toBe(403);
  });

  it('deletes its Deployment, then removes the finalizer', async () => {
    await harness.deleteApplication('owned');
    await eventually(() => gone(() => harness.deployment('owned')));
    await eventually(() => gone(() => harness.application('owned')));
  });
});
