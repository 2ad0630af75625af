import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterFixture,
  eventually,
  startClusterFixture,
} from './cluster-fixture.test-helper.js';

let f: ClusterFixture;
beforeAll(async () => {
  f = await startClusterFixture();
});
afterAll(async () => {
  await f.stop();
});

const service = (name: string, spec: Record<string, unknown>): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels: { tier: 'web' } },
  spec,
});
const pod = (
  name: string,
  labels: Record<string, string>,
  ports: unknown[] = [{ name: 'http', containerPort: 8080 }],
): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels },
  spec: { containers: [{ name: 'main', image: 'nginx', ports }] },
});
const podIP = (name: string) =>
  (f.get('', 'pods', 'default', name)?.status as any)?.podIP as string | undefined;
const slicesOf = (name: string) =>
  f
    .list('discovery.k8s.io', 'endpointslices', 'default')
    .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === name);
const subsets = (name: string): any[] =>
  (f.get('', 'endpoints', 'default', name)?.subsets as any[]) ?? [];

describe('EndpointsController', () => {
  it('publishes ready Pods with a named targetPort in Endpoints and an EndpointSlice', async () => {
    const svc = await f.create(
      '',
      'services',
      'default',
      service('web', {
        selector: { app: 'web' },
        ports: [{ name: 'http', port: 80, targetPort: 'http' }],
      }),
    );
    await f.create('', 'pods', 'default', pod('web-a', { app: 'web' }));
    await f.create('', 'pods', 'default', pod('web-b', { app: 'web' }));
    await f.create('', 'pods', 'default', pod('other', { app: 'other' }));
    const addresses = await eventually(() => {
      const list = subsets('web')[0]?.addresses;
      return list?.length === 2 && list;
    });
    const ips = [podIP('web-a'), podIP('web-b')].sort();
    expect(addresses.map((a: any) => a.ip).sort()).toEqual(ips);
    const a = f.get('', 'pods', 'default', 'web-a');
    expect(addresses.find((x: any) => x.ip === podIP('web-a'))).toEqual({
      ip: podIP('web-a'),
      nodeName: 'local-node',
      targetRef: { kind: 'Pod', namespace: 'default', name: 'web-a', uid: a?.metadata?.uid },
    });
    expect(subsets('web')[0].ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const endpoints = f.get('', 'endpoints', 'default', 'web');
    expect(endpoints?.metadata?.labels).toMatchObject({
      tier: 'web',
      'endpoints.kubernetes.io/managed-by': 'endpoint-controller',
    });

    const [slice, ...more] = slicesOf('web');
    expect(more).toEqual([]);
    expect(slice?.metadata?.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice).toMatchObject({
      apiVersion: 'discovery.k8s.io/v1',
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
    });
    expect(slice?.metadata?.labels).toMatchObject({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
    });
    expect(slice?.metadata?.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Service',
        name: 'web',
        uid: svc.metadata?.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(((slice?.endpoints ?? []) as any[]).map((e) => e.addresses[0]).sort()).toEqual(ips);
    expect(((slice?.endpoints ?? []) as any[])[0]).toMatchObject({
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: 'local-node',
    });
  });

  it('moves finished Pods out and deleted Pods to terminating', async () => {
    await f.cluster.finishPod('default', 'web-a', 'Failed');
    await eventually(
      () =>
        subsets('web')[0]?.addresses?.length === 1 &&
        slicesOf('web')[0]?.endpoints &&
        ((slicesOf('web')[0]?.endpoints ?? []) as any[]).length === 1,
    );
    expect(subsets('web')[0].addresses[0].ip).toBe(podIP('web-b'));

    await f.remove('', 'pods', 'default', 'web-b');
    const ending = await eventually(() => {
      const [endpoint] = (slicesOf('web')[0]?.endpoints as any[]) ?? [];
      return endpoint?.conditions?.terminating === true && endpoint;
    });
    expect(ending.conditions).toEqual({ ready: false, serving: true, terminating: true });
    expect(subsets('web')).toEqual([]);
    await eventually(
      () =>
        f.get('', 'pods', 'default', 'web-b') === undefined &&
        (slicesOf('web')[0]?.endpoints as any[])?.length === 0,
    );
    expect(f.get('', 'endpoints', 'default', 'web')).not.toHaveProperty('subsets');
  });

  it('lists Pods that are not ready as notReadyAddresses', async () => {
    const g = await startClusterFixture({ kubelet: false });
    try {
      await g.create(
        '',
        'services',
        'default',
        service('api', { selector: { app: 'api' }, ports: [{ port: 443, targetPort: 8443 }] }),
      );
      await g.create('', 'pods', 'default', pod('api-1', { app: 'api' }));
      await g.create('', 'pods', 'default', pod('api-2', { app: 'api' }));
      await g.patch(
        '',
        'pods',
        'default',
        'api-1',
        { status: { podIP: '10.1.0.1', conditions: [{ type: 'Ready', status: 'False' }] } },
        'status',
      );
      await g.patch(
        '',
        'pods',
        'default',
        'api-2',
        { status: { podIP: '10.1.0.2', conditions: [{ type: 'Ready', status: 'True' }] } },
        'status',
      );
      const subset = await eventually(() => {
        const s = (g.get('', 'endpoints', 'default', 'api')?.subsets as any[])?.[0];
        return s?.addresses?.length === 1 && s?.notReadyAddresses?.length === 1 && s;
      });
      expect(subset.addresses[0].ip).toBe('10.1.0.2');
      expect(subset.notReadyAddresses[0]).toMatchObject({
        ip: '10.1.0.1',
        targetRef: { name: 'api-1' },
      });
      expect(subset.ports).toEqual([{ port: 8443, protocol: 'TCP' }]);
      expect(subset.addresses[0]).not.toHaveProperty('nodeName');
    } finally {
      await g.stop();
    }
  });

  it('leaves Services without selector and their Endpoints alone', async () => {
    await f.create(
      '',
      'services',
      'default',
      service('webhook', { ports: [{ port: 443, targetPort: 9443 }] }),
    );
    await f.create('', 'endpoints', 'default', {
      metadata: { name: 'webhook' },
      subsets: [{ addresses: [{ ip: '172.17.0.1' }], ports: [{ port: 9443 }] }],
    });
    await f.cluster.idle();
    expect(subsets('webhook')).toEqual([
      { addresses: [{ ip: '172.17.0.1' }], ports: [{ port: 9443 }] },
    ]);
    expect(slicesOf('webhook')).toEqual([]);
  });

  it('splits Pods that resolve a named port differently, and cleans up when the Service goes', async () => {
    await f.create(
      '',
      'services',
      'default',
      service('mixed', { selector: { app: 'mixed' }, ports: [{ port: 80, targetPort: 'http' }] }),
    );
    await f.create(
      '',
      'pods',
      'default',
      pod('mixed-1', { app: 'mixed' }, [{ name: 'http', containerPort: 8080 }]),
    );
    await f.create(
      '',
      'pods',
      'default',
      pod('mixed-2', { app: 'mixed' }, [{ name: 'http', containerPort: 9090 }]),
    );
    await f.create(
      '',
      'pods',
      'default',
      pod('mixed-3', { app: 'mixed' }, [{ name: 'metrics', containerPort: 9100 }]),
    );
    await eventually(() => subsets('mixed').length === 2 && slicesOf('mixed').length === 2);
    expect(
      subsets('mixed')
        .map((s) => s.ports[0].port)
        .sort(),
    ).toEqual([8080, 9090]);
    expect(
      slicesOf('mixed')
        .map((s) => (s.ports as any[])[0].port)
        .sort(),
    ).toEqual([8080, 9090]);

    await f.remove('', 'services', 'default', 'mixed');
    await eventually(
      () =>
        f.get('', 'endpoints', 'default', 'mixed') === undefined && slicesOf('mixed').length === 0,
    );
  });

  it('follows Pods through label changes, Service selector changes and namespace moves', async () => {
    await f.create('', 'namespaces', '', { metadata: { name: 'moved' } });
    for (const namespace of ['default', 'moved']) {
      for (const color of ['blue', 'green']) {
        await f.create(
          '',
          'services',
          namespace,
          service(color, { selector: { color }, ports: [{ port: 80, targetPort: 'http' }] }),
        );
      }
    }
    /** The Pods the Service's Endpoints and EndpointSlices publish as ready, as namespace/name. */
    const published = (namespace: string, name: string) => {
      const fromEndpoints = ((f.get('', 'endpoints', namespace, name)?.subsets as any[]) ?? [])
        .flatMap((s) => s.addresses ?? [])
        .map((a: any) => `${a.targetRef.namespace}/${a.targetRef.name}`);
      const fromSlices = f
        .list('discovery.k8s.io', 'endpointslices', namespace)
        .filter((s) => s.metadata?.labels?.['kubernetes.io/service-name'] === name)
        .flatMap((s) => (s.endpoints as any[]) ?? [])
        .filter((e) => e.conditions.ready)
        .map((e) => `${e.targetRef.namespace}/${e.targetRef.name}`);
      return JSON.stringify(fromEndpoints) === JSON.stringify(fromSlices)
        ? fromEndpoints.join(',')
        : `endpoints ${fromEndpoints} but slices ${fromSlices}`;
    };
    const all = () =>
      ['default/blue', 'default/green', 'moved/blue', 'moved/green']
        .map((key) => `${key}=${published(...(key.split('/') as [string, string]))}`)
        .join(' ');

    await f.create('', 'pods', 'default', pod('hue', { color: 'blue' }));
    await eventually(
      () => all() === 'default/blue=default/hue default/green= moved/blue= moved/green=',
    );

    // The Pod's labels change: it leaves blue and joins green.
    await f.patch('', 'pods', 'default', 'hue', { metadata: { labels: { color: 'green' } } });
    await eventually(
      () => all() === 'default/blue= default/green=default/hue moved/blue= moved/green=',
    );

    // blue's selector changes to green's: both publish the Pod; then to nothing it matches.
    await f.patch('', 'services', 'default', 'blue', { spec: { selector: { color: 'green' } } });
    await eventually(
      () => all() === 'default/blue=default/hue default/green=default/hue moved/blue= moved/green=',
    );
    await f.patch('', 'services', 'default', 'blue', {
      spec: { selector: { color: 'green', tier: 'db' } },
    });
    await eventually(
      () => all() === 'default/blue= default/green=default/hue moved/blue= moved/green=',
    );

    // The Pod moves namespace (deleted, created again under the same name in another one).
    await f.remove('', 'pods', 'default', 'hue');
    await f.create('', 'pods', 'moved', pod('hue', { color: 'green' }));
    await eventually(
      () => all() === 'default/blue= default/green= moved/blue= moved/green=moved/hue',
    );
  });
});
