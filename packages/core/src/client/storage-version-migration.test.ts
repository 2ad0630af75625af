import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoKindMatchError } from '../errors/no-kind-match-error.js';
import { Client } from './client.js';
import { type LocalApiServer, startLocalApiServer } from './local-api-server.fixture.js';
import { migrateStorageVersion } from './storage-version-migration.js';

const group = 'migration.ops.dev';
const crdName = `things.${group}`;
const version = (name: string, storage: boolean) => ({
  name,
  served: true,
  storage,
  schema: {
    openAPIV3Schema: {
      type: 'object',
      properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    },
  },
});
const crd = (versions: unknown[]) =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
      versions,
    },
  }) as KubernetesObject;

let server: LocalApiServer;
let client: Client;

beforeAll(async () => {
  server = await startLocalApiServer();
  client = new Client({ kubeConfig: server.kubeConfig });
}, 30_000);
afterAll(async () => {
  client?.close();
  await server?.stop();
});

describe('migrateStorageVersion by reading and writing back (the local API server)', () => {
  it('rewrites every object at the new storage version and leaves it alone in storedVersions', async () => {
    await client.create(crd([version('v1alpha1', true)]));
    for (const name of ['a', 'b', 'c']) {
      await client.create({
        apiVersion: `${group}/v1alpha1`,
        kind: 'Thing',
        metadata: { name, namespace: 'default' },
        spec: { size: name },
      });
    }
    const current = await client.get(
      'apiextensions.k8s.io/v1',
      'CustomResourceDefinition',
      crdName,
    );
    await client.update({
      ...crd([version('v1alpha1', false), version('v1', true)]),
      metadata: current.metadata,
    });
    const result = await migrateStorageVersion(client, crdName);
    expect(result).toEqual({
      storageVersion: 'v1',
      method: 'rewrite',
      rewritten: 3,
      previousStoredVersions: ['v1alpha1', 'v1'],
      storedVersions: ['v1'],
    });
    const after = await client.get<KubernetesObject & { status: { storedVersions: string[] } }>(
      'apiextensions.k8s.io/v1',
      'CustomResourceDefinition',
      crdName,
    );
    expect(after.status.storedVersions).toEqual(['v1']);
    const things = await client.list(`${group}/v1`, 'Thing', { namespace: 'default' });
    expect(things.items.map((thing) => thing.spec)).toEqual([
      { size: 'a' },
      { size: 'b' },
      { size: 'c' },
    ]);
  });

  it('refuses the StorageVersionMigration API on a cluster that does not serve it', async () => {
    await expect(migrateStorageVersion(client, crdName, { method: 'api' })).rejects.toThrow(
      'the cluster does not serve storagemigration.k8s.io (StorageVersionMigration)',
    );
  });
});

/**
 * A client of a cluster that serves storagemigration.k8s.io/v1beta1, whose migrations reach
 * the condition `outcome` after one read: only what migrateStorageVersion calls.
 */
function migrationClient(outcome: 'Succeeded' | 'Failed' | 'never') {
  const created: KubernetesObject[] = [];
  let definition = {
    ...crd([version('v1alpha1', false), version('v1', true)]),
    status: { storedVersions: ['v1alpha1', 'v1'] },
  };
  let reads = 0;
  const fake = {
    restMapper: {
      async resourceFor(apiVersion: string, kind: string) {
        if (apiVersion === 'storagemigration.k8s.io/v1beta1') return {};
        const [apiGroup = '', apiGroupVersion = ''] = apiVersion.split('/');
        throw new NoKindMatchError(apiGroup, apiGroupVersion, kind, `no ${kind} in ${apiVersion}`);
      },
    },
    async get(apiVersion: string, kind: string) {
      if (kind === 'CustomResourceDefinition') return definition;
      reads++;
      const status =
        outcome === 'never' || reads < 2
          ? {}
          : { conditions: [{ type: outcome, status: 'True', message: 'out of disk' }] };
      return { ...created[0], apiVersion, status };
    },
    async create(object: KubernetesObject) {
      const named = { ...object, metadata: { ...object.metadata, name: 'm-1' } };
      created.push(named);
      return named;
    },
    async updateStatus(object: typeof definition) {
      definition = object;
      return object;
    },
  };
  return { client: fake as unknown as Client, created };
}

describe('migrateStorageVersion by the StorageVersionMigration API', () => {
  it('creates a migration of the resource and waits until it succeeds', async () => {
    const { client: fake, created } = migrationClient('Succeeded');
    const result = await migrateStorageVersion(fake, crdName, { pollIntervalMs: 1 });
    expect(created).toEqual([
      {
        apiVersion: 'storagemigration.k8s.io/v1beta1',
        kind: 'StorageVersionMigration',
        metadata: { generateName: `${crdName}-`, name: 'm-1' },
        spec: { resource: { group, resource: 'things' } },
      },
    ]);
    expect(result).toEqual({
      storageVersion: 'v1',
      method: 'api',
      rewritten: 0,
      previousStoredVersions: ['v1alpha1', 'v1'],
      storedVersions: ['v1'],
    });
  });

  it("fails with the migration's message when it fails, and after the timeout", async () => {
    await expect(
      migrateStorageVersion(migrationClient('Failed').client, crdName, { pollIntervalMs: 1 }),
    ).rejects.toThrow(`StorageVersionMigration m-1 of things.${group} failed: out of disk`);
    await expect(
      migrateStorageVersion(migrationClient('never').client, crdName, {
        pollIntervalMs: 1,
        timeoutMs: 20,
      }),
    ).rejects.toThrow('did not succeed within 20 ms');
  });
});
