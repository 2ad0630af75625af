import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';
import { conformanceIt } from '../known-differences.js';
import { applicationCrd } from './application-crd.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
});
afterAll(async () => {
  await cluster.stop();
});

const base = '/apis/core.crd.lixueduan.com/v1/namespaces/default/applications';

describe('custom resources', () => {
  // kube-apiserver establishes a CRD after answering its create (its establishing controller),
  // so clients wait for the Established condition before they use the resource.
  let createdCrd: any;
  it('serves a CRD once it is Established, discovery included', async () => {
    const created = await cluster.request(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      applicationCrd,
    );
    expect(created.status).toBe(201);
    createdCrd = created.body;
    await eventually(async () => {
      const crd = await cluster.request(
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.core.crd.lixueduan.com',
      );
      return crd.body.status?.conditions?.some(
        (c: any) => c.type === 'Established' && c.status === 'True',
      );
    });
    await eventually(async () => {
      const groups = (await cluster.request('GET', '/apis')).body.groups.map((g: any) => g.name);
      expect(groups).toContain('core.crd.lixueduan.com');
      const resources = (await cluster.request('GET', '/apis/core.crd.lixueduan.com/v1')).body
        .resources;
      expect(resources.map((r: any) => r.name)).toEqual(['applications', 'applications/status']);
      expect((await cluster.request('GET', base)).body.kind).toBe('ApplicationList');
    });
  });

  conformanceIt('answers the create of a CRD before establishing it', async () => {
    expect(createdCrd.metadata.name).toBe('applications.core.crd.lixueduan.com');
    expect(createdCrd.status?.conditions ?? []).not.toContainEqual(
      expect.objectContaining({ type: 'Established' }),
    );
  });

  conformanceIt('rejects a custom resource without apiVersion and kind', async () => {
    const bare = await cluster.request('POST', base, {
      metadata: { name: 'bare' },
      spec: { image: 'x' },
    });
    expect(bare.status).toBe(400);
    expect(bare.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(bare.body.message).toContain("Object 'Kind' is missing in");
  });

  it('defaults, prunes unknown fields with a warning, and validates against the schema', async () => {
    const created = await cluster.request('POST', base, {
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'demo' },
      spec: { image: 'nginx:1.22', extra: 'x' },
    });
    expect(created.status).toBe(201);
    expect(created.body.spec).toEqual({ enabled: true, image: 'nginx:1.22' });
    expect(created.headers.get('warning')).toBe('299 - "unknown field \\"spec.extra\\""');
    const strict = await cluster.request('POST', `${base}?fieldValidation=Strict`, {
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'strict' },
      spec: { image: 'x', extra: 1 },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.message).toContain('unknown field "spec.extra"');
    const missing = await cluster.request('POST', base, {
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'bad' },
      spec: { enabled: 'yes' },
    });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/^Application.core.crd.lixueduan.com "bad" is invalid: /);
    const fields = missing.body.details.causes.map((c: any) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['spec.image', 'spec.enabled']));
    const range = await cluster.request('POST', base, {
      apiVersion: 'core.crd.lixueduan.com/v1',
      kind: 'Application',
      metadata: { name: 'range' },
      spec: { image: 'x', replicas: 11 },
    });
    expect(range.body.details.causes[0]).toMatchObject({ field: 'spec.replicas' });
  });

  it('keeps status and spec apart through the status subresource', async () => {
    const current = (await cluster.request('GET', `${base}/demo`)).body;
    const status = await cluster.request('PUT', `${base}/demo/status`, {
      ...current,
      spec: { image: 'changed' },
      status: { ready: true },
    });
    expect(status.body.status).toEqual({ ready: true });
    expect(status.body.spec.image).toBe('nginx:1.22');
    const main = await cluster.request(
      'PATCH',
      `${base}/demo`,
      { spec: { image: 'nginx:1.23' }, status: { ready: false } },
      { contentType: 'application/merge-patch+json' },
    );
    expect(main.body.status).toEqual({ ready: true });
    expect(main.body.metadata.generation).toBe(2);
  });

  it('answers strategic merge patch on a custom resource with 415', async () => {
    const res = await cluster.request(
      'PATCH',
      `${base}/demo`,
      { spec: { image: 'a' } },
      { contentType: 'application/strategic-merge-patch+json' },
    );
    expect(res.status).toBe(415);
    expect(res.body.reason).toBe('UnsupportedMediaType');
  });

  it('serves Table output with the printer columns', async () => {
    const table = await cluster.request('GET', base, undefined, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.body.kind).toBe('Table');
    expect(table.body.columnDefinitions.map((c: any) => c.name)).toEqual([
      'Name',
      'Image',
      'Ready',
    ]);
    expect(table.body.rows[0].cells.slice(0, 3)).toEqual(['demo', 'nginx:1.23', true]);
  });

  it('rejects a CRD whose name does not match its names, or without a storage version', async () => {
    const wrongName = await cluster.request(
      'POST',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      { ...applicationCrd, metadata: { name: 'wrong.example.com' } },
    );
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.message).toContain('must be spec.names.plural+"."+spec.group');
  });

  it('stops serving the resource when the CRD is deleted', async () => {
    expect(
      (
        await cluster.request(
          'DELETE',
          '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/applications.core.crd.lixueduan.com',
        )
      ).status,
    ).toBe(200);
    // kube-apiserver deletes the CRD's objects first (the customresourcecleanup finalizer),
    // then stops serving it.
    await eventually(async () => {
      expect((await cluster.request('GET', base)).status).toBe(404);
      expect(
        (await cluster.request('GET', '/apis')).body.groups.map((g: any) => g.name),
      ).not.toContain('core.crd.lixueduan.com');
    });
  });
});
