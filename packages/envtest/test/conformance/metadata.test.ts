import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

// Metadata as kube-apiserver writes it (issue #14, item 5), kind by kind; the same
// expectations hold on the real kube-apiserver (pnpm test:binaries).
let cluster: TestCluster;
beforeAll(async () => {
  // API semantics only: no simulated controllers writing behind the test's back.
  cluster = await startCluster({ apiServer: { cluster: false } });
  const crd = (name: string, status: boolean) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.meta.ops-ts.github.io` },
    spec: {
      group: 'meta.ops-ts.github.io',
      scope: 'Namespaced',
      names: { plural: `${name}s`, singular: name, kind: name[0]?.toUpperCase() + name.slice(1) },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          ...(status ? { subresources: { status: {} } } : {}),
          schema: {
            openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          },
        },
      ],
    },
  });
  for (const body of [crd('gadget', true), crd('gizmo', false)]) {
    const created = await cluster.request(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body,
    );
    expect(created.status).toBe(201);
  }
  // Served once discovery has it (the real kube-apiserver takes a moment).
  for (const plural of ['gadgets', 'gizmos']) {
    for (let i = 0; i < 100; i++) {
      const res = await cluster.request(
        'GET',
        `/apis/meta.ops-ts.github.io/v1/namespaces/default/${plural}`,
      );
      if (res.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
afterAll(async () => {
  await cluster.stop();
});

const template = (label: string) => ({
  metadata: { labels: { app: label } },
  spec: { containers: [{ name: 'c', image: 'busybox' }] },
});
const workload = (label: string) => ({
  selector: { matchLabels: { app: label } },
  template: template(label),
});

/** One object of each built-in kind, by collection path, and whether kube gives it a generation. */
const kinds: Array<{ path: string; body: Record<string, unknown>; generation: boolean }> = [
  { path: '/api/v1/namespaces', body: { metadata: { name: 'meta-ns' } }, generation: false },
  {
    path: '/api/v1/namespaces/default/configmaps',
    body: { metadata: { name: 'meta-cm' }, data: { a: 'b' } },
    generation: false,
  },
  {
    path: '/api/v1/namespaces/default/secrets',
    body: { metadata: { name: 'meta-secret' }, stringData: { a: 'b' } },
    generation: false,
  },
  {
    path: '/api/v1/namespaces/default/services',
    body: { metadata: { name: 'meta-svc' }, spec: { ports: [{ port: 80 }] } },
    generation: false,
  },
  {
    path: '/api/v1/namespaces/default/serviceaccounts',
    body: { metadata: { name: 'meta-sa' } },
    generation: false,
  },
  {
    path: '/apis/coordination.k8s.io/v1/namespaces/default/leases',
    body: { metadata: { name: 'meta-lease' } },
    generation: false,
  },
  {
    path: '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
    body: { metadata: { name: 'meta-role' } },
    generation: false,
  },
  {
    path: '/api/v1/namespaces/default/pods',
    body: { metadata: { name: 'meta-pod' }, spec: template('pod').spec },
    generation: true,
  },
  {
    path: '/apis/apps/v1/namespaces/default/deployments',
    body: { metadata: { name: 'meta-deploy' }, spec: workload('deploy') },
    generation: true,
  },
  {
    path: '/apis/apps/v1/namespaces/default/replicasets',
    body: { metadata: { name: 'meta-rs' }, spec: workload('rs') },
    generation: true,
  },
  {
    path: '/apis/apps/v1/namespaces/default/statefulsets',
    body: { metadata: { name: 'meta-sts' }, spec: { ...workload('sts'), serviceName: 'meta-svc' } },
    generation: true,
  },
  {
    path: '/apis/apps/v1/namespaces/default/daemonsets',
    body: { metadata: { name: 'meta-ds' }, spec: workload('ds') },
    generation: true,
  },
  {
    path: '/apis/batch/v1/namespaces/default/jobs',
    body: {
      metadata: { name: 'meta-job' },
      spec: { template: { spec: { ...template('job').spec, restartPolicy: 'Never' } } },
    },
    generation: true,
  },
  {
    path: '/apis/discovery.k8s.io/v1/namespaces/default/endpointslices',
    body: { metadata: { name: 'meta-slice' }, addressType: 'IPv4', endpoints: [] },
    generation: true,
  },
  {
    path: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    body: { metadata: { name: 'meta-webhooks' } },
    generation: true,
  },
  {
    path: '/apis/meta.ops-ts.github.io/v1/namespaces/default/gadgets',
    body: {
      apiVersion: 'meta.ops-ts.github.io/v1',
      kind: 'Gadget',
      metadata: { name: 'meta-gadget' },
      spec: { size: 1 },
    },
    generation: true,
  },
];

describe('server-set metadata, kind by kind', () => {
  it('sets uid, creationTimestamp and resourceVersion, never selfLink, and generation only where kube does', async () => {
    for (const { path, body, generation } of kinds) {
      const created = await cluster.request('POST', path, {
        ...body,
        metadata: { ...(body.metadata as object), selfLink: '/mine', uid: 'mine' },
      });
      expect(created.status, `${path}: ${JSON.stringify(created.body)}`).toBe(201);
      const meta = created.body.metadata;
      expect(meta.uid, path).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(meta.creationTimestamp, path).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Number(meta.resourceVersion), path).toBeGreaterThan(0);
      expect(meta.selfLink, path).toBeUndefined();
      expect(meta.deletionTimestamp, path).toBeUndefined();
      expect(meta.deletionGracePeriodSeconds, path).toBeUndefined();
      if (generation) expect(meta.generation, path).toBe(1);
      else expect(meta.generation, path).toBeUndefined();
    }
  });

  it('keeps a generation a client sets on a kind without one, and lets no update change it', async () => {
    const created = await cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'meta-cm-generation', generation: 5 },
      data: { a: 'b' },
    });
    expect(created.body.metadata.generation).toBe(5);
    const patched = await cluster.request(
      'PATCH',
      '/api/v1/namespaces/default/configmaps/meta-cm-generation',
      { metadata: { generation: 9 }, data: { a: 'c' } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(patched.body.metadata.generation).toBe(5);
    const deployment = await cluster.request(
      'POST',
      '/apis/apps/v1/namespaces/default/deployments',
      {
        metadata: { name: 'meta-deploy-generation', generation: 5 },
        spec: workload('generation'),
      },
    );
    expect(deployment.body.metadata.generation).toBe(1);
  });

  it("bumps generation on each kind's spec changes only", async () => {
    const patch = (path: string, body: unknown) =>
      cluster.request('PATCH', path, body, { contentType: 'application/merge-patch+json' });
    const deploy = '/apis/apps/v1/namespaces/default/deployments/meta-deploy';
    // A Deployment's annotations count (they are copied to its ReplicaSets); labels do not.
    expect(
      (await patch(deploy, { metadata: { labels: { x: 'y' } } })).body.metadata.generation,
    ).toBe(1);
    expect(
      (await patch(deploy, { metadata: { annotations: { x: 'y' } } })).body.metadata.generation,
    ).toBe(2);
    // Through /status (as the deployment controller writes its revision), annotations change
    // and the generation does not.
    const viaStatus = await patch(`${deploy}/status`, {
      metadata: { annotations: { 'deployment.kubernetes.io/revision': '1' } },
    });
    expect(viaStatus.body.metadata).toMatchObject({
      generation: 2,
      annotations: { x: 'y', 'deployment.kubernetes.io/revision': '1' },
    });
    const rs = '/apis/apps/v1/namespaces/default/replicasets/meta-rs';
    expect(
      (await patch(rs, { metadata: { annotations: { x: 'y' } } })).body.metadata.generation,
    ).toBe(1);
    expect((await patch(rs, { spec: { replicas: 3 } })).body.metadata.generation).toBe(2);
    const cm = '/api/v1/namespaces/default/configmaps/meta-cm';
    expect((await patch(cm, { data: { a: 'changed' } })).body.metadata.generation).toBeUndefined();
    // A custom resource without a status subresource: status is part of what bumps it.
    const gizmos = '/apis/meta.ops-ts.github.io/v1/namespaces/default/gizmos';
    await cluster.request('POST', gizmos, {
      apiVersion: 'meta.ops-ts.github.io/v1',
      kind: 'Gizmo',
      metadata: { name: 'g' },
      spec: { size: 1 },
    });
    expect((await patch(`${gizmos}/g`, { status: { ok: true } })).body.metadata.generation).toBe(2);
    expect(
      (await patch(`${gizmos}/g`, { metadata: { labels: { a: 'b' } } })).body.metadata.generation,
    ).toBe(2);
  });
});

describe('deletion with finalizers', () => {
  it('bumps generation once when deletionTimestamp is set, with deletionGracePeriodSeconds 0', async () => {
    const gadget = '/apis/meta.ops-ts.github.io/v1/namespaces/default/gadgets/held';
    const created = await cluster.request(
      'POST',
      '/apis/meta.ops-ts.github.io/v1/namespaces/default/gadgets',
      {
        apiVersion: 'meta.ops-ts.github.io/v1',
        kind: 'Gadget',
        metadata: { name: 'held', finalizers: ['meta.ops-ts.github.io/hold'] },
        spec: { size: 1 },
      },
    );
    expect(created.body.metadata.generation).toBe(1);
    const watch = await cluster.watch(
      `/apis/meta.ops-ts.github.io/v1/namespaces/default/gadgets?watch=true&resourceVersion=${created.body.metadata.resourceVersion}&fieldSelector=metadata.name%3Dheld`,
    );
    try {
      const deleted = await cluster.request('DELETE', gadget);
      expect(deleted.status).toBe(200);
      expect(deleted.body.metadata).toMatchObject({ generation: 2, deletionGracePeriodSeconds: 0 });
      expect(deleted.body.metadata.deletionTimestamp).toMatch(/Z$/);
      // What a controller filtering on generation changes sees: a MODIFIED event with a new one.
      const [event] = await watch.next(1, 10_000);
      expect(event).toMatchObject({ type: 'MODIFIED', object: { metadata: { generation: 2 } } });
      // A second delete changes nothing.
      const again = await cluster.request('DELETE', gadget);
      expect(again.body.metadata.generation).toBe(2);
      expect(again.body.metadata.resourceVersion).toBe(deleted.body.metadata.resourceVersion);
    } finally {
      watch.close();
    }
    const released = await cluster.request(
      'PATCH',
      gadget,
      { metadata: { finalizers: null } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(released.status).toBe(200);
    expect((await cluster.request('GET', gadget)).status).toBe(404);
  });

  it('leaves kinds without a generation without one, through the real kubectl', async () => {
    const hold = (kind: string, name: string) =>
      cluster.kubectl([
        'patch',
        kind,
        name,
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":["meta.ops-ts.github.io/hold"]}}',
      ]);
    const release = (kind: string, name: string) =>
      cluster.kubectl([
        'patch',
        kind,
        name,
        '--type=json',
        '-p',
        '[{"op":"remove","path":"/metadata/finalizers"}]',
      ]);
    const metadata = async (kind: string, name: string) =>
      JSON.parse(await cluster.kubectl(['get', kind, name, '-o', 'jsonpath={.metadata}']));

    await hold('configmap', 'meta-cm');
    expect(await cluster.kubectl(['delete', 'configmap', 'meta-cm', '--wait=false'])).toContain(
      'deleted',
    );
    const meta = await metadata('configmap', 'meta-cm');
    expect(meta.generation).toBeUndefined();
    expect(meta.deletionGracePeriodSeconds).toBe(0);
    expect(meta.deletionTimestamp).toMatch(/Z$/);
    await release('configmap', 'meta-cm');
    await expect(cluster.kubectl(['get', 'configmap', 'meta-cm'])).rejects.toThrow('NotFound');

    await hold('deployment', 'meta-deploy');
    const before = (await metadata('deployment', 'meta-deploy')).generation;
    await cluster.kubectl(['delete', 'deployment', 'meta-deploy', '--wait=false']);
    expect((await metadata('deployment', 'meta-deploy')).generation).toBe(before + 1);
    await release('deployment', 'meta-deploy');
    // Nine kubectl processes: seconds each when CI runs every package's suite at once on 2
    // cores, where the 20 s default once ran out.
  }, 90_000);
});
