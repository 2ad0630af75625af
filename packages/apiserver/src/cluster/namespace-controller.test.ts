import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import {
  type ClusterFixture,
  configMap,
  deployment,
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

const widgets: KubernetesObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
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

describe('NamespaceController', () => {
  it('deletes everything in a Terminating namespace, custom resources too, then the namespace', async () => {
    await f.create('apiextensions.k8s.io', 'customresourcedefinitions', '', widgets);
    await f.create('', 'namespaces', '', { metadata: { name: 'doomed' } });
    await f.create('', 'configmaps', 'doomed', configMap('settings'));
    await f.create('', 'secrets', 'doomed', {
      metadata: { name: 'token' },
      stringData: { a: 'b' },
    });
    await f.create('apps', 'deployments', 'doomed', deployment('app', 2));
    await f.create('example.com', 'widgets', 'doomed', {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
    });
    await f.create('example.com', 'widgets', 'doomed', {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'held', finalizers: ['example.com/cleanup'] },
    });
    await eventually(
      () =>
        f.list('', 'pods', 'doomed').filter((p) => (p.status as any)?.phase === 'Running')
          .length === 2,
    );

    const marked = await f.remove('', 'namespaces', '', 'doomed');
    expect(marked.metadata?.deletionTimestamp).toBeDefined();
    expect((marked.status as any).phase).toBe('Terminating');
    await expect(f.create('', 'configmaps', 'doomed', configMap('late'))).rejects.toSatisfy(
      (e) => StatusError.isInstance(e) && e.code === 403,
    );

    // Everything goes but the finalized widget, which holds the namespace.
    await eventually(
      () =>
        f.list('', 'configmaps', 'doomed').length === 0 &&
        f.list('', 'secrets', 'doomed').length === 0 &&
        f.list('apps', 'deployments', 'doomed').length === 0 &&
        f.list('apps', 'replicasets', 'doomed').length === 0 &&
        f.list('', 'pods', 'doomed').length === 0 &&
        f.list('example.com', 'widgets', 'doomed').length === 1,
    );
    await f.cluster.idle();
    expect(
      f.get('example.com', 'widgets', 'doomed', 'held')?.metadata?.deletionTimestamp,
    ).toBeDefined();
    expect(f.get('', 'namespaces', '', 'doomed')).toBeDefined();

    await f.patch('example.com', 'widgets', 'doomed', 'held', { metadata: { finalizers: null } });
    await eventually(() => f.get('', 'namespaces', '', 'doomed') === undefined);
  });

  it('removes an empty namespace promptly', async () => {
    await f.create('', 'namespaces', '', { metadata: { name: 'empty' } });
    await f.remove('', 'namespaces', '', 'empty');
    await eventually(() => f.get('', 'namespaces', '', 'empty') === undefined);
  });

  it('leaves namespaces that are not being deleted alone', async () => {
    await f.create('', 'namespaces', '', { metadata: { name: 'alive' } });
    await f.create('', 'configmaps', 'alive', configMap('keep'));
    await f.cluster.idle();
    expect(f.get('', 'configmaps', 'alive', 'keep')).toBeDefined();
    expect((f.get('', 'namespaces', '', 'alive')?.status as any)?.phase).toBe('Active');
  });
});
