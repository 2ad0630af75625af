import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { NoKindMatchError } from '../errors/no-kind-match-error.js';
import { parseApiVersion } from '../kinds/resource-descriptor.js';
import { KubeTransport } from '../transport/kube-transport.js';
import { DiscoveryRestMapper } from './discovery-rest-mapper.js';
import { type LocalApiServer, startLocalApiServer } from './local-api-server.fixture.js';

const gadgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.mapper.ops.test' },
  spec: {
    group: 'mapper.ops.test',
    scope: 'Cluster',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
    ],
  },
};

describe('parseApiVersion', () => {
  it('splits group and version, the core group being empty', () => {
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
  });
});

describe('DiscoveryRestMapper against the local API server', () => {
  let server: LocalApiServer;
  let transport: KubeTransport;

  beforeAll(async () => {
    server = await startLocalApiServer();
    transport = new KubeTransport(server.kubeConfig);
  });
  afterAll(async () => {
    transport?.close();
    await server?.stop();
  });

  it('maps core and group kinds, namespaced or not', async () => {
    const mapper = new DiscoveryRestMapper(transport);
    expect(await mapper.resourceFor('v1', 'ConfigMap')).toEqual({
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
      plural: 'configmaps',
      namespaced: true,
    });
    expect(await mapper.resourceFor('v1', 'Namespace')).toMatchObject({
      plural: 'namespaces',
      namespaced: false,
    });
    expect(await mapper.resourceFor('apps/v1', 'Deployment')).toMatchObject({
      group: 'apps',
      plural: 'deployments',
      namespaced: true,
    });
  });

  it('reads each group version once, sharing concurrent reads, and leaves out subresources', async () => {
    const mapper = new DiscoveryRestMapper(transport);
    const spy = vi.spyOn(transport, 'request');
    try {
      await Promise.all([
        mapper.resourceFor('v1', 'Pod'),
        mapper.resourceFor('v1', 'Service'),
        mapper.resourceFor('v1', 'ConfigMap'),
      ]);
      await mapper.resourceFor('v1', 'Secret');
      expect(spy.mock.calls.map(([request]) => request.path)).toEqual(['/api/v1']);
      const kinds = (await mapper.resourcesFor('v1')).map((r) => r.plural);
      expect(kinds).toContain('pods');
      expect(kinds.some((plural) => plural.includes('/'))).toBe(false);
    } finally {
      spy.mockRestore();
    }
  });

  it('finds a CRD created after the first lookup with one fresh discovery', async () => {
    const mapper = new DiscoveryRestMapper(transport);
    const missing = await mapper.resourceFor('mapper.ops.test/v1', 'Gadget').catch((e) => e);
    expect(NoKindMatchError.isInstance(missing)).toBe(true);
    expect((missing as NoKindMatchError).message).toMatch(
      /no matches for kind "Gadget" in version "mapper.ops.test\/v1".*install the CustomResourceDefinition/,
    );
    expect(missing).toMatchObject({ group: 'mapper.ops.test', version: 'v1', kind: 'Gadget' });

    const created = await transport.request({
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: gadgetCrd,
    });
    expect(created.status).toBe(201);
    const spy = vi.spyOn(transport, 'request');
    try {
      expect(await mapper.resourceFor('mapper.ops.test/v1', 'Gadget')).toMatchObject({
        plural: 'gadgets',
        namespaced: false,
      });
      expect(spy).toHaveBeenCalledTimes(1);
      // Known from now on: no further reads.
      await mapper.resourceFor('mapper.ops.test/v1', 'Gadget');
      expect(spy).toHaveBeenCalledTimes(1);
      // An unknown kind in a known group version refreshes once, then fails.
      const unknown = await mapper.resourceFor('mapper.ops.test/v1', 'Gizmo').catch((e) => e);
      expect(spy).toHaveBeenCalledTimes(2);
      expect((unknown as Error).message).toContain('mapper.ops.test/v1 serves only Gadget');
    } finally {
      spy.mockRestore();
    }
  });

  it('resolves a group and kind through the preferred version', async () => {
    const mapper = new DiscoveryRestMapper(transport);
    expect(await mapper.preferredVersion('apps')).toBe('v1');
    expect(await mapper.preferredVersion('')).toBe('v1');
    expect(await mapper.resourceForGroupKind('apps', 'StatefulSet')).toMatchObject({
      version: 'v1',
      plural: 'statefulsets',
    });
    const error = await mapper.preferredVersion('nope.ops.test').catch((e) => e);
    expect(NoKindMatchError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('does not serve the API group "nope.ops.test"');
    const kind = await mapper.resourceForGroupKind('apps', 'Nope').catch((e) => e);
    expect(NoKindMatchError.isInstance(kind)).toBe(true);
  });

  it('reports discovery failures as ApiError and retries them later', async () => {
    const mapper = new DiscoveryRestMapper(transport);
    const spy = vi
      .spyOn(transport, 'request')
      .mockResolvedValueOnce({ status: 503, headers: {}, text: 'overloaded' })
      .mockResolvedValueOnce({ status: 200, headers: {}, text: '<html>proxy login</html>' });
    try {
      const first = await mapper.resourceFor('batch/v1', 'Job').catch((e) => e);
      expect(ApiError.isInstance(first)).toBe(true);
      expect(first).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
      const second = await mapper.resourceFor('batch/v1', 'Job').catch((e) => e);
      expect(second).toMatchObject({ code: 200, reason: 'UnexpectedResponse' });
      expect((second as Error).message).toContain('expected an APIResourceList in JSON');
      expect(await mapper.resourceFor('batch/v1', 'Job')).toMatchObject({ plural: 'jobs' });
    } finally {
      spy.mockRestore();
    }
  });

  it('reset forgets what was discovered', async () => {
    const mapper = new DiscoveryRestMapper(transport);
    await mapper.resourceFor('v1', 'Pod');
    mapper.reset();
    const spy = vi.spyOn(transport, 'request');
    try {
      await mapper.resourceFor('v1', 'Pod');
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
