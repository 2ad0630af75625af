import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// Server-side apply and managed fields, driven by the real kubectl and raw requests; the
// expected fieldsV1 are what kube-apiserver 1.37 records for the same requests.

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ apiServer: { cluster: false } });
});
afterAll(async () => {
  await cluster.stop();
});

const applyType = 'application/apply-patch+yaml';
const configMaps = '/api/v1/namespaces/default/configmaps';
const deployments = '/apis/apps/v1/namespaces/default/deployments';
const widgets = '/apis/ssa.example.com/v1/namespaces/default/widgets';

/** Managed fields without their times, by manager and operation. */
const owners = (object: any) =>
  Object.fromEntries(
    (object.metadata.managedFields ?? []).map((entry: any) => [
      `${entry.manager}/${entry.operation}${entry.subresource ? `/${entry.subresource}` : ''}`,
      entry.fieldsV1,
    ]),
  );

const deployment = (replicas: number, image: string) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'web', image, ports: [{ containerPort: 80 }] }] },
      },
    },
  });

describe('managed fields on every write', () => {
  it('records the creator with the fields it set, in fieldsV1', async () => {
    const created = await cluster.request('POST', `${configMaps}?fieldManager=maker`, {
      metadata: { name: 'mf', labels: { a: 'b' } },
      data: { a: '1' },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([
      {
        manager: 'maker',
        operation: 'Update',
        apiVersion: 'v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:data': { '.': {}, 'f:a': {} },
          'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
        },
      },
    ]);
    const got = await cluster.request('GET', `${configMaps}/mf`);
    expect(got.body.metadata.managedFields).toEqual(created.body.metadata.managedFields);
  });

  it('gives a writer the fields it changes, and keeps managedFields through a PUT', async () => {
    const patched = await cluster.request(
      'PATCH',
      `${configMaps}/mf?fieldManager=patcher`,
      { data: { a: '2', b: '3' } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(owners(patched.body)).toEqual({
      'maker/Update': {
        'f:data': {},
        'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } },
      },
      'patcher/Update': { 'f:data': { 'f:a': {}, 'f:b': {} } },
    });
    const put = await cluster.request('PUT', `${configMaps}/mf?fieldManager=putter`, {
      ...patched.body,
      data: { ...patched.body.data, c: '4' },
    });
    expect(owners(put.body)).toEqual({
      ...owners(patched.body),
      'putter/Update': { 'f:data': { 'f:c': {} } },
    });
    const cleared = await cluster.request('PUT', `${configMaps}/mf`, {
      ...put.body,
      metadata: { ...put.body.metadata, managedFields: [{}] },
    });
    expect(cleared.body.metadata.managedFields).toBeUndefined();
  });

  it("records a built-in kind's create as kube does, its zero-value structs unowned", async () => {
    const created = await cluster.request(
      'POST',
      `${deployments}?fieldManager=maker`,
      JSON.parse(deployment(1, 'nginx')),
    );
    expect(created.status).toBe(201);
    const spec = owners(created.body)['maker/Update']['f:spec'];
    expect(spec['f:strategy']).toEqual({
      'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} },
      'f:type': {},
    });
    expect(spec['f:selector']).toEqual({});
    expect(spec['f:template']['f:spec']['f:containers']['k:{"name":"web"}']['f:ports']).toEqual({
      '.': {},
      'k:{"containerPort":80,"protocol":"TCP"}': {
        '.': {},
        'f:containerPort': {},
        'f:protocol': {},
      },
    });
    const status = await cluster.request(
      'PATCH',
      `${deployments}/web/status?fieldManager=controller`,
      { status: { replicas: 1 } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(owners(status.body)['controller/Update/status']).toEqual({
      'f:status': { 'f:replicas': {} },
    });
    await cluster.request('DELETE', `${deployments}/web`);
  });
});

// Each test runs kubectl several times: a few seconds alone, many times that when CI runs every
// package's tests at once on 2 cores.
describe('server-side apply with kubectl', { timeout: 60_000 }, () => {
  it("creates, conflicts with kubectl create's fields, and takes them with --force-conflicts", async () => {
    await cluster.kubectl(['create', 'configmap', 'settings', '--from-literal=a=1']);
    const manifest =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"default"},"data":{"a":"2","b":"3"}}';
    await expect(
      cluster.kubectl(['apply', '--server-side', '--field-manager=gitops', '-f', '-'], {
        input: manifest,
      }),
    ).rejects.toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.a',
    );
    expect(
      await cluster.kubectl(
        ['apply', '--server-side', '--field-manager=gitops', '--force-conflicts', '-f', '-'],
        { input: manifest },
      ),
    ).toContain('configmap/settings serverside-applied');
    const got = JSON.parse(
      await cluster.kubectl([
        'get',
        'configmap',
        'settings',
        '-o',
        'json',
        '--show-managed-fields',
      ]),
    );
    expect(got.data).toEqual({ a: '2', b: '3' });
    expect(owners(got)).toEqual({
      'gitops/Apply': { 'f:data': { 'f:a': {}, 'f:b': {} } },
      'kubectl-create/Update': { 'f:data': {} },
    });
  });

  it("takes over a client-side apply's fields when kubectl switches to --server-side", async () => {
    const manifest = (value: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'migrated', namespace: 'default' },
        data: { a: value },
      });
    await cluster.kubectl(['apply', '-f', '-'], { input: manifest('1') });
    expect(
      await cluster.kubectl(['apply', '--server-side', '-f', '-'], { input: manifest('2') }),
    ).toContain('configmap/migrated serverside-applied');
    const got = JSON.parse(
      await cluster.kubectl([
        'get',
        'configmap',
        'migrated',
        '-o',
        'json',
        '--show-managed-fields',
      ]),
    );
    expect(got.data).toEqual({ a: '2' });
    expect(Object.keys(owners(got))).toContain('kubectl/Apply');
  });

  it('applies a Deployment, names each conflicting manager, and removes what it stops applying', async () => {
    await cluster.kubectl(['apply', '--server-side', '-f', '-'], {
      input: deployment(1, 'nginx:1'),
    });
    await cluster.kubectl([
      'patch',
      'deployment',
      'web',
      '--type=merge',
      '-p',
      '{"spec":{"replicas":2}}',
      '--field-manager=scaler',
    ]);
    await expect(
      cluster.kubectl(['apply', '--server-side', '-f', '-'], { input: deployment(3, 'nginx:2') }),
    ).rejects.toThrow(
      'Apply failed with 1 conflict: conflict with "scaler" using apps/v1: .spec.replicas',
    );
    await cluster.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], {
      input: deployment(3, 'nginx:2'),
    });
    const withoutLabels = JSON.parse(deployment(3, 'nginx:2'));
    delete withoutLabels.metadata.labels;
    await cluster.kubectl(['apply', '--server-side', '-f', '-'], {
      input: JSON.stringify(withoutLabels),
    });
    const got = JSON.parse(await cluster.kubectl(['get', 'deployment', 'web', '-o', 'json']));
    expect(got.spec.replicas).toBe(3);
    expect(got.spec.template.spec.containers[0].image).toBe('nginx:2');
    expect(got.metadata.labels).toBeUndefined();
  });
});

describe('server-side apply on a custom resource', () => {
  beforeAll(async () => {
    await cluster.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.ssa.example.com' },
      spec: {
        group: 'ssa.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {} },
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      size: { type: 'integer' },
                      tags: {
                        type: 'array',
                        'x-kubernetes-list-type': 'set',
                        items: { type: 'string' },
                      },
                      ports: {
                        type: 'array',
                        'x-kubernetes-list-type': 'map',
                        'x-kubernetes-list-map-keys': ['name'],
                        items: {
                          type: 'object',
                          required: ['name'],
                          properties: { name: { type: 'string' }, port: { type: 'integer' } },
                        },
                      },
                    },
                  },
                  status: { type: 'object', properties: { phase: { type: 'string' } } },
                },
              },
            },
          },
        ],
      },
    });
    await eventually(async () => (await cluster.request('GET', widgets)).status === 200);
  });

  const widget = (spec: Record<string, unknown>) => ({
    apiVersion: 'ssa.example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec,
  });
  const apply = (manager: string, body: unknown, query = '') =>
    cluster.request('PATCH', `${widgets}/w?fieldManager=${manager}${query}`, JSON.stringify(body), {
      contentType: applyType,
    });

  it('needs a fieldManager, honours dryRun, and creates the object when absent', async () => {
    const anonymous = await cluster.request('PATCH', `${widgets}/w`, JSON.stringify(widget({})), {
      contentType: applyType,
    });
    expect(anonymous.status).toBe(422);
    expect(anonymous.body.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    const dry = await apply('a', widget({ size: 1 }), '&dryRun=All');
    expect(dry.status).toBe(201);
    expect((await cluster.request('GET', `${widgets}/w`)).status).toBe(404);
    const created = await apply(
      'a',
      widget({ size: 1, tags: ['x'], ports: [{ name: 'http', port: 80 }] }),
    );
    expect(created.status).toBe(201);
    expect(owners(created.body)).toEqual({
      'a/Apply': {
        'f:spec': {
          'f:ports': { 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } },
          'f:size': {},
          'f:tags': { 'v:"x"': {} },
        },
      },
    });
  });

  it('merges keyed lists and sets item by item, each manager owning its items', async () => {
    const second = await apply(
      'b',
      widget({ tags: ['y'], ports: [{ name: 'metrics', port: 9090 }] }),
    );
    expect(second.status).toBe(200);
    expect(second.body.spec).toEqual({
      size: 1,
      tags: ['x', 'y'],
      ports: [
        { name: 'http', port: 80 },
        { name: 'metrics', port: 9090 },
      ],
    });
    const conflict = await apply('b', widget({ ports: [{ name: 'http', port: 8080 }] }));
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "a": .spec.ports[name="http"].port',
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "a"',
            field: '.spec.ports[name="http"].port',
          },
        ],
      },
    });
    const dropped = await apply('b', widget({}));
    expect(dropped.body.spec).toEqual({
      size: 1,
      tags: ['x'],
      ports: [{ name: 'http', port: 80 }],
    });
  });

  it('applies a custom resource with kubectl: conflicts between managers, --force-conflicts', async () => {
    const manifest = (size: number) =>
      JSON.stringify({ ...widget({ size }), metadata: { name: 'k', namespace: 'default' } });
    expect(
      await cluster.kubectl(['apply', '--server-side', '--field-manager=team-a', '-f', '-'], {
        input: manifest(1),
      }),
    ).toContain('widget.ssa.example.com/k serverside-applied');
    await expect(
      cluster.kubectl(['apply', '--server-side', '--field-manager=team-b', '-f', '-'], {
        input: manifest(2),
      }),
    ).rejects.toThrow('Apply failed with 1 conflict: conflict with "team-a": .spec.size');
    await cluster.kubectl(
      ['apply', '--server-side', '--field-manager=team-b', '--force-conflicts', '-f', '-'],
      { input: manifest(2) },
    );
    const got = JSON.parse(
      await cluster.kubectl(['get', 'widgets', 'k', '-o', 'json', '--show-managed-fields']),
    );
    expect(got.spec.size).toBe(2);
    expect(owners(got)).toEqual({ 'team-b/Apply': { 'f:spec': { 'f:size': {} } } });
  });

  it('records status applies under the status subresource', async () => {
    const status = await cluster.request(
      'PATCH',
      `${widgets}/w/status?fieldManager=c&force=true`,
      JSON.stringify({ ...widget({}), status: { phase: 'Ready' } }),
      { contentType: applyType },
    );
    expect(status.status).toBe(200);
    expect(status.body.status).toEqual({ phase: 'Ready' });
    expect(owners(status.body)['c/Apply/status']).toEqual({ 'f:status': { 'f:phase': {} } });
  });
});
