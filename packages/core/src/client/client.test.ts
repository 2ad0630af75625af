import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubernetesObject } from '@ops/api';
import { LabelSelectorError, parseLabelSelector } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheListOptions, CacheReader } from '../cache/cache-reader.js';
import { ApiError } from '../errors/api-error.js';
import { NoKindMatchError } from '../errors/no-kind-match-error.js';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import {
  ignoreNotFound,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isInvalid,
  isNotFound,
} from './api-error-helpers.js';
import type { ConfigMap } from './built-in-kinds.js';
import { Client, type ClientOptions, type ClientVerb } from './client.js';
import { createOrUpdate } from './create-or-update.js';
import { type LocalApiServer, startLocalApiServer } from './local-api-server.fixture.js';
import { retryOnConflict } from './retry-on-conflict.js';

interface Widget extends KubernetesObject {
  spec?: { size?: number; color?: string };
  status?: { phase?: string; ready?: number };
}

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.client.ops.test' },
  spec: {
    group: 'client.ops.test',
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
                properties: { size: { type: 'integer' }, color: { type: 'string' } },
              },
              status: {
                type: 'object',
                properties: { phase: { type: 'string' }, ready: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
};

/** Records every request a client sends. */
function counted(options: ClientOptions): {
  client: Client;
  requests: Array<[ClientVerb, string]>;
} {
  const requests: Array<[ClientVerb, string]> = [];
  const client = new Client({
    ...options,
    onRequest: (verb, resource) => requests.push([verb, resource]),
  });
  return { client, requests };
}

const configMap = (name: string, namespace: string, data: Record<string, string> = {}) =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data }) as ConfigMap;

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ApiError.isInstance(error)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe.each([
  ['HTTP', false],
  ['HTTPS', true],
])('Client over %s against the local API server', (_name, https) => {
  let server: LocalApiServer;
  let client: Client;
  let requests: Array<[ClientVerb, string]>;
  let namespace: string;

  beforeAll(async () => {
    server = await startLocalApiServer({ https });
    ({ client, requests } = counted({ kubeConfig: server.kubeConfig, fieldManager: 'ops-test' }));
    namespace = `client-${randomUUID().slice(0, 8)}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  });
  afterAll(async () => {
    client?.close();
    await server?.stop();
  });

  it('creates, reads, updates and deletes ConfigMaps', async () => {
    const created = await client.create(configMap('crud', namespace, { a: '1' }));
    expect(created.metadata?.uid).toBeTruthy();
    expect(created).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } });

    const byArgs = await client.get<ConfigMap>('v1', 'ConfigMap', 'crud', namespace);
    const byRef = await client.get<ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'crud',
      namespace,
    });
    const byObject = await client.get<ConfigMap>(configMap('crud', namespace));
    expect(byArgs).toEqual(byRef);
    expect(byObject.metadata?.uid).toBe(created.metadata?.uid);

    const updated = await client.update({ ...byArgs, data: { a: '2' } });
    expect(updated.data).toEqual({ a: '2' });
    expect(updated.metadata?.resourceVersion).not.toBe(byArgs.metadata?.resourceVersion);

    const stale = await errorOf(client.update({ ...byArgs, data: { a: '3' } }));
    expect(isConflict(stale)).toBe(true);
    expect(stale.code).toBe(409);
    expect(stale.message).toContain('retryOnConflict');

    const duplicate = await errorOf(client.create(configMap('crud', namespace)));
    expect(isAlreadyExists(duplicate)).toBe(true);
    expect(duplicate.status.reason).toBe('AlreadyExists');

    await client.delete(updated);
    const gone = await errorOf(client.get('v1', 'ConfigMap', 'crud', namespace));
    expect(isNotFound(gone)).toBe(true);
    expect(gone.message).toBe('configmaps "crud" not found');
    expect(await ignoreNotFound(client.get('v1', 'ConfigMap', 'crud', namespace))).toBeUndefined();
    expect(isNotFound(await errorOf(client.delete(updated)))).toBe(true);
  });

  it('reports invalid objects with their causes', async () => {
    const error = await errorOf(client.create(configMap('Not_Valid', namespace)));
    expect(isInvalid(error)).toBe(true);
    expect(error.code).toBe(422);
    expect(error.details.causes?.[0]?.field).toBe('metadata.name');
  });

  it('honours dryRun, generateName and delete preconditions', async () => {
    await client.create(configMap('dry', namespace), { dryRun: true });
    expect(isNotFound(await errorOf(client.get('v1', 'ConfigMap', 'dry', namespace)))).toBe(true);

    const generated = await client.create<ConfigMap>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'gen-', namespace },
    });
    expect(generated.metadata?.name).toMatch(/^gen-/);

    const wrongUid = await errorOf(
      client.delete(generated, { preconditions: { uid: 'not-the-uid' } }),
    );
    expect(isConflict(wrongUid)).toBe(true);
    await client.delete(generated, {
      preconditions: { uid: generated.metadata?.uid ?? '' },
      propagationPolicy: 'Background',
      gracePeriodSeconds: 0,
    });
    expect(isNotFound(await errorOf(client.get(generated)))).toBe(true);
  });

  it('patches with merge, JSON and strategic merge patches', async () => {
    await client.create(configMap('patched', namespace, { a: '1', b: '2' }));
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'patched', namespace };
    const merged = await client.patch<ConfigMap>(ref, { data: { b: null, c: '3' } }, 'merge');
    expect(merged.data).toEqual({ a: '1', c: '3' });
    const jsonPatched = await client.patch<ConfigMap>(
      ref,
      [
        { op: 'test', path: '/data/a', value: '1' },
        { op: 'replace', path: '/data/a', value: '10' },
      ],
      'json',
    );
    expect(jsonPatched.data).toEqual({ a: '10', c: '3' });
    const strategic = await client.patch<ConfigMap>(
      ref,
      JSON.stringify({ metadata: { labels: { patched: 'yes' } } }),
      'strategic',
    );
    expect(strategic.metadata?.labels).toEqual({ patched: 'yes' });

    const failedTest = await errorOf(
      client.patch(ref, [{ op: 'test', path: '/data/a', value: 'nope' }], 'json'),
    );
    expect(failedTest.code).toBeGreaterThanOrEqual(400);
  });

  it('applies server-side: creates, owns its fields, conflicts with another manager, forces', async () => {
    const created = await client.apply(configMap('applied', namespace, { x: '1' }));
    expect(created.data).toEqual({ x: '1' });
    expect(created.metadata?.managedFields).toEqual([
      expect.objectContaining({
        manager: 'ops-test',
        operation: 'Apply',
        fieldsV1: { 'f:data': { 'f:x': {} } },
      }),
    ]);
    const conflict = await errorOf(
      client.apply(configMap('applied', namespace, { x: '2' }), { fieldManager: 'other' }),
    );
    expect(conflict.code).toBe(409);
    expect(conflict.reason).toBe('Conflict');
    expect(conflict.message).toContain(
      'Apply failed with 1 conflict: conflict with "ops-test": .data.x',
    );
    const forced = await client.apply(configMap('applied', namespace, { x: '2' }), {
      fieldManager: 'other',
      force: true,
    });
    expect(forced.data).toEqual({ x: '2' });
    // ops-test no longer owns x, so applying without it leaves it to its new owner.
    const moved = await client.apply(configMap('applied', namespace, { y: '3' }));
    expect(moved.data).toEqual({ x: '2', y: '3' });
  });

  it('checks patches and identities before sending anything', async () => {
    const before = requests.length;
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', namespace };
    expect((await errorOf(client.patch(ref, { op: 'add' }, 'json'))).message).toContain(
      'a JSON patch is an array of operations',
    );
    expect((await errorOf(client.patch(ref, [], 'merge'))).message).toContain(
      'use patch type json',
    );
    expect((await errorOf(client.patch(ref, {}, 'merge', { force: true }))).message).toContain(
      'force is only valid for server-side apply',
    );
    const noNamespace = await errorOf(client.get('v1', 'ConfigMap', 'x'));
    expect(noNamespace.reason).toBe('BadRequest');
    expect(noNamespace.message).toContain('ConfigMap is namespaced');
    expect(
      (await errorOf(client.update({ apiVersion: 'v1', kind: 'ConfigMap' }))).message,
    ).toContain('without metadata.name');
    expect(requests.length).toBe(before);
  });

  it('rejects kinds the server does not serve with NoKindMatchError', async () => {
    const error = await client.get('nope.ops.test/v1', 'Thing', 'x', namespace).catch((e) => e);
    expect(NoKindMatchError.isInstance(error)).toBe(true);
    expect(isNotFound(error)).toBe(false);
  });

  it('works with a CRD created in the test, including its status subresource', async () => {
    await client.create(widgetCrd);
    const widget = await client.create<Widget>({
      apiVersion: 'client.ops.test/v1',
      kind: 'Widget',
      metadata: { name: 'w1', namespace },
      spec: { size: 1, color: 'red' },
    });
    expect(widget.metadata?.generation).toBe(1);

    const withStatus = await client.updateStatus<Widget>({
      ...widget,
      spec: { size: 99 },
      status: { phase: 'Ready', ready: 1 },
    });
    expect(withStatus.status).toEqual({ phase: 'Ready', ready: 1 });
    expect(withStatus.spec).toEqual({ size: 1, color: 'red' });

    const specOnly = await client.update<Widget>({
      ...withStatus,
      spec: { size: 2, color: 'red' },
      status: { phase: 'Ignored' },
    });
    expect(specOnly.spec?.size).toBe(2);
    expect(specOnly.status?.phase).toBe('Ready');

    const patched = await client.patchStatus<Widget>(specOnly, { status: { ready: 3 } }, 'merge');
    expect(patched.status).toEqual({ phase: 'Ready', ready: 3 });
    expect(requests.at(-1)).toEqual(['patch', 'widgets/status']);

    const strategic = await errorOf(client.patch(patched, { spec: { size: 3 } }, 'strategic'));
    expect(strategic.code).toBe(415);
    expect(strategic.message).toContain("use patch type 'merge' or 'json'");

    const list = await client.list<Widget>('client.ops.test/v1', 'Widget', { namespace });
    expect(list.items.map((w) => [w.kind, w.apiVersion, w.metadata?.name])).toEqual([
      ['Widget', 'client.ops.test/v1', 'w1'],
    ]);
    await client.delete(patched);
    expect(isNotFound(await errorOf(client.get(patched)))).toBe(true);
  });

  it('pages through whole lists, or returns one page with limit and continue', async () => {
    const pagedNs = `paged-${randomUUID().slice(0, 8)}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: pagedNs } });
    for (let i = 0; i < 7; i++) {
      await client.create({
        ...configMap(`item-${i}`, pagedNs),
        metadata: { name: `item-${i}`, namespace: pagedNs, labels: { parity: String(i % 2) } },
      });
    }
    const paging = counted({ kubeConfig: server.kubeConfig, listPageSize: 2 });
    try {
      const all = await paging.client.list<ConfigMap>('v1', 'ConfigMap', { namespace: pagedNs });
      expect(all.items.map((cm) => cm.metadata?.name).sort()).toEqual(
        [0, 1, 2, 3, 4, 5, 6].map((i) => `item-${i}`),
      );
      expect(all.items.every((cm) => cm.kind === 'ConfigMap' && cm.apiVersion === 'v1')).toBe(true);
      expect(all.metadata.continue).toBeUndefined();
      expect(all.metadata.resourceVersion).toBeTruthy();
      expect(paging.requests.filter(([verb]) => verb === 'list')).toHaveLength(4);
    } finally {
      paging.client.close();
    }

    const first = await client.list('v1', 'ConfigMap', { namespace: pagedNs, limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.metadata.continue).toBeTruthy();
    const names = first.items.map((cm) => cm.metadata?.name);
    let token = first.metadata.continue;
    while (token) {
      const page = await client.list('v1', 'ConfigMap', {
        namespace: pagedNs,
        limit: 3,
        continue: token,
      });
      names.push(...page.items.map((cm) => cm.metadata?.name));
      token = page.metadata.continue;
    }
    expect(names).toHaveLength(7);
    expect(new Set(names).size).toBe(7);

    const expired = await errorOf(
      client.list('v1', 'ConfigMap', { namespace: pagedNs, limit: 1, continue: 'garbage' }),
    );
    expect(expired.code).toBe(400);
  });

  it('filters lists by label and field selectors in every form', async () => {
    const ns = `sel-${randomUUID().slice(0, 8)}`;
    await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const [name, tier] of [
      ['web-1', 'front'],
      ['web-2', 'front'],
      ['db-1', 'back'],
    ] as const) {
      await client.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: ns, labels: { tier, app: name.split('-')[0] ?? '' } },
      });
    }
    const names = async (options: Parameters<Client['list']>[2]) =>
      (await client.list('v1', 'ConfigMap', { namespace: ns, ...options })).items
        .map((cm) => cm.metadata?.name)
        .sort();
    expect(await names({ labelSelector: 'tier=front' })).toEqual(['web-1', 'web-2']);
    expect(await names({ labelSelector: parseLabelSelector('tier in (back)') })).toEqual(['db-1']);
    expect(
      await names({
        labelSelector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['back'] }] },
      }),
    ).toEqual(['web-1', 'web-2']);
    expect(await names({ fieldSelector: 'metadata.name=web-2' })).toEqual(['web-2']);
    expect(await names({ fieldSelector: { 'metadata.name': 'db-1' } })).toEqual(['db-1']);
    expect(
      await names({ labelSelector: 'app=web', fieldSelector: 'metadata.name!=web-1' }),
    ).toEqual(['web-2']);
    const before = requests.length;
    expect(
      await client.list('v1', 'ConfigMap', { namespace: ns, labelSelector: { matchLabels: {} } }),
    ).toMatchObject({ items: expect.any(Array) });
    expect(await names({ labelSelector: { matchLabels: { tier: 'front' } } })).toHaveLength(2);
    expect(requests.length).toBe(before + 2);
    await expect(names({ labelSelector: 'tier in ()' })).rejects.toSatisfy(
      LabelSelectorError.isInstance,
    );

    await client.deleteAllOf('v1', 'ConfigMap', { namespace: ns, labelSelector: 'tier=front' });
    expect(requests.at(-1)).toEqual(['deletecollection', 'configmaps']);
    expect(await names({ labelSelector: 'tier' })).toEqual(['db-1']);
    const deleteAllNoNs = await errorOf(client.deleteAllOf('v1', 'ConfigMap'));
    expect(deleteAllNoNs.message).toContain('needs a namespace');
  });

  it('counts requests by verb and resource for writes and reads', async () => {
    const local = counted({ kubeConfig: server.kubeConfig });
    try {
      const cm = await local.client.create(configMap('counted', namespace));
      await local.client.get(cm);
      await local.client.update({ ...cm, data: { a: '1' } });
      await local.client.patch(cm, { data: { b: '2' } }, 'merge');
      await local.client.list('v1', 'ConfigMap', { namespace });
      await local.client.delete(cm);
      expect(local.requests).toEqual([
        ['create', 'configmaps'],
        ['get', 'configmaps'],
        ['update', 'configmaps'],
        ['patch', 'configmaps'],
        ['list', 'configmaps'],
        ['delete', 'configmaps'],
      ]);
    } finally {
      local.client.close();
    }
  });

  it('createOrUpdate creates, updates, and writes nothing when nothing changed', async () => {
    const local = counted({ kubeConfig: server.kubeConfig });
    const writes = () => local.requests.filter(([verb]) => verb !== 'get' && verb !== 'list');
    try {
      const desired = configMap('managed', namespace);
      const setData = (value: string) => (cm: ConfigMap) => {
        cm.data = { ...cm.data, managed: value };
      };
      const first = await createOrUpdate(local.client, desired, setData('1'));
      expect(first.result).toBe('created');
      expect(first.object.data).toEqual({ managed: '1' });
      expect(desired.data).toEqual({});

      const again = await createOrUpdate(local.client, desired, setData('1'));
      expect(again.result).toBe('unchanged');
      const changed = await createOrUpdate(local.client, desired, setData('2'));
      expect(changed.result).toBe('updated');
      expect(changed.object.data).toEqual({ managed: '2' });
      expect(writes()).toEqual([
        ['create', 'configmaps'],
        ['update', 'configmaps'],
      ]);
      const noop = local.requests.length;
      await createOrUpdate(local.client, desired, setData('2'));
      expect(local.requests.slice(noop)).toEqual([['get', 'configmaps']]);
    } finally {
      local.client.close();
    }
  });

  it('retryOnConflict rereads and succeeds after a concurrent write', async () => {
    await client.create(configMap('contended', namespace, { n: '0' }));
    let attempts = 0;
    const result = await retryOnConflict(async () => {
      attempts++;
      const cm = await client.get<ConfigMap>('v1', 'ConfigMap', 'contended', namespace);
      if (attempts === 1) {
        // Someone else writes between our read and our write.
        await client.patch(cm, { data: { other: 'x' } }, 'merge');
      }
      return client.update({ ...cm, data: { ...cm.data, n: String(Number(cm.data?.n) + 1) } });
    });
    expect(attempts).toBe(2);
    expect(result.data).toEqual({ n: '1', other: 'x' });
  });
});

describe('Client reads through a CacheReader', () => {
  let server: LocalApiServer;
  let namespace: string;
  const cachedObjects: KubernetesObject[] = [];
  const listCalls: CacheListOptions[] = [];
  const cache: CacheReader = {
    has: (apiVersion, kind) => apiVersion === 'v1' && kind === 'ConfigMap',
    get: (_apiVersion, _kind, ns, name) => {
      const found = cachedObjects.find(
        (o) => o.metadata?.name === name && o.metadata?.namespace === ns,
      );
      return found === undefined ? undefined : structuredClone(found);
    },
    list: (_apiVersion, _kind, options = {}) => {
      listCalls.push(options);
      return cachedObjects
        .filter(
          (o) => options.namespace === undefined || o.metadata?.namespace === options.namespace,
        )
        .filter((o) => options.labelSelector?.matches(o.metadata?.labels) ?? true)
        .map((o) => structuredClone(o));
    },
  };

  beforeAll(async () => {
    server = await startLocalApiServer();
    namespace = `cache-${randomUUID().slice(0, 8)}`;
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    admin.close();
    cachedObjects.push(
      { metadata: { name: 'c1', namespace, labels: { app: 'a' } }, data: { from: 'cache' } },
      { metadata: { name: 'c2', namespace, labels: { app: 'b' } }, data: { from: 'cache' } },
      { metadata: { name: 'c3', namespace: 'elsewhere', labels: { app: 'a' } } },
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves get and list of cached kinds from the cache, without requests', async () => {
    const { client, requests } = counted({ kubeConfig: server.kubeConfig, cache });
    try {
      const c1 = await client.get<ConfigMap>('v1', 'ConfigMap', 'c1', namespace);
      expect(c1).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { from: 'cache' } });
      const missing = await errorOf(client.get('v1', 'ConfigMap', 'absent', namespace));
      expect(missing).toMatchObject({ code: 404, reason: 'NotFound' });
      expect(missing.message).toBe('configmaps "absent" not found');

      const list = await client.list('v1', 'ConfigMap', { namespace, labelSelector: 'app=a' });
      expect(list.items.map((o) => o.metadata?.name)).toEqual(['c1']);
      expect(listCalls.at(-1)?.labelSelector?.toString()).toBe('app=a');
      expect(listCalls.at(-1)?.namespace).toBe(namespace);
      const byField = await client.list('v1', 'ConfigMap', { fieldSelector: 'metadata.name=c3' });
      expect(byField.items.map((o) => o.metadata?.namespace)).toEqual(['elsewhere']);
      expect(byField.kind).toBe('ConfigMapList');
      expect(requests).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('sends writes, uncached kinds and explicit paging to the API server', async () => {
    const { client, requests } = counted({ kubeConfig: server.kubeConfig, cache });
    try {
      await client.create(configMap('written', namespace));
      await client.list('v1', 'Secret', { namespace });
      await client.list('v1', 'ConfigMap', { namespace, limit: 10 });
      expect(requests).toEqual([
        ['create', 'configmaps'],
        ['list', 'secrets'],
        ['list', 'configmaps'],
      ]);
      // The cache does not have it yet: the read says NotFound, as a lagging cache would.
      expect(isNotFound(await errorOf(client.get('v1', 'ConfigMap', 'written', namespace)))).toBe(
        true,
      );
    } finally {
      client.close();
    }
  });
});

describe('Client errors', () => {
  it('names the RBAC rule a 403 calls for', async () => {
    const server = await startLocalApiServer({ https: true, rbac: true });
    try {
      const token = await server.serviceAccountToken('ops', 'app');
      const client = new Client({ kubeConfig: server.kubeConfigWithToken(token) });
      try {
        const denied = await errorOf(
          client.patch(
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: 'default' },
            { spec: { replicas: 2 } },
            'merge',
          ),
        );
        expect(isForbidden(denied)).toBe(true);
        expect(denied.code).toBe(403);
        expect(denied.message).toContain(
          'forbidden: User "system:serviceaccount:ops:app" cannot patch resource "deployments" in API group "apps" in the namespace "default"; add a rule {apiGroups: ["apps"], resources: ["deployments"], verbs: ["patch"]} to the operator\'s Role or ClusterRole',
        );
        const clusterWide = await errorOf(client.list('v1', 'Namespace'));
        expect(clusterWide.message).toContain(
          'add a rule {apiGroups: [""], resources: ["namespaces"], verbs: ["list"]} to the operator\'s ClusterRole',
        );
      } finally {
        client.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('turns unreachable servers and odd answers into ApiErrors', async () => {
    const configMaps: ResourceDescriptor = {
      group: '',
      version: 'v1',
      kind: 'ConfigMap',
      plural: 'configmaps',
      namespaced: true,
    };
    const restMapper = { resourceFor: async () => configMaps };
    const answers: Array<[number, string, string]> = [
      [200, 'text/html', '<html><body>Sign in to the proxy</body></html>'],
      [500, 'text/plain', 'upstream exploded'],
      [200, 'application/json', '{"kind":"ConfigMapList","items":"nope"}'],
      [200, 'application/json', '[1,2,3]'],
    ];
    const fake = http.createServer((_req, res) => {
      const [status, type, body] = answers.shift() ?? [404, 'text/plain', 'none'];
      res.writeHead(status, { 'Content-Type': type });
      res.end(body);
    });
    await new Promise<void>((listening) => fake.listen(0, '127.0.0.1', listening));
    const port = (fake.address() as AddressInfo).port;
    const kubeConfig = (url: string) => {
      const config = new KubeConfig();
      config.loadFromOptions({
        clusters: [{ name: 'c', server: url, skipTLSVerify: false }],
        users: [{ name: 'u', token: 't' }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      return config;
    };
    const client = new Client({ kubeConfig: kubeConfig(`http://127.0.0.1:${port}`), restMapper });
    try {
      const html = await errorOf(client.get('v1', 'ConfigMap', 'x', 'default'));
      expect(html).toMatchObject({ code: 200, reason: 'UnexpectedResponse' });
      expect(html.message).toContain('text/html');
      expect(html.message).toContain('expected a JSON object');
      const plain = await errorOf(client.get('v1', 'ConfigMap', 'x', 'default'));
      expect(plain).toMatchObject({ code: 500, reason: 'InternalError' });
      expect(plain.message).toContain('upstream exploded');
      const badList = await errorOf(client.list('v1', 'ConfigMap', { namespace: 'default' }));
      expect(badList.message).toContain('expected a list with an items array');
      const array = await errorOf(client.get('v1', 'ConfigMap', 'x', 'default'));
      expect(array.reason).toBe('UnexpectedResponse');
    } finally {
      client.close();
      await new Promise((closed) => fake.close(closed));
    }

    const unreachable = new Client({
      kubeConfig: kubeConfig(`http://127.0.0.1:${port}`),
      restMapper,
    });
    try {
      const error = await errorOf(unreachable.get('v1', 'ConfigMap', 'x', 'default'));
      expect(error).toMatchObject({ code: 0, reason: 'ConnectionFailed' });
      expect(error.message).toContain(`could not reach the API server at http://127.0.0.1:${port}`);
      expect(error.cause).toBeInstanceOf(Error);
    } finally {
      unreachable.close();
    }
  });

  it('needs a kubeConfig or a transport', () => {
    expect(() => new Client({})).toThrow('Client needs a kubeConfig');
  });
});
