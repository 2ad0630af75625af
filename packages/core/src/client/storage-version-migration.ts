import type { CustomResourceDefinitionObject, KubernetesObject } from '@ops/api';
import { NoKindMatchError } from '../errors/no-kind-match-error.js';
import { isConflict, isNotFound } from './api-error-helpers.js';
import type { Client } from './client.js';

/** How {@link migrateStorageVersion} rewrites the stored objects. */
export type StorageVersionMigrationMethod = 'auto' | 'api' | 'rewrite';

/** Options of {@link migrateStorageVersion}. */
export interface MigrateStorageVersionOptions {
  /**
   * `api`: a `StorageVersionMigration` (storagemigration.k8s.io `v1beta1`, else `v1alpha1`),
   * carried out by kube-controller-manager's storage version migrator; `rewrite`: every object
   * read and written back by this function; `auto` (the default): `api` when the cluster
   * serves that API, `rewrite` otherwise.
   */
  method?: StorageVersionMigrationMethod;
  /** How long `api` waits for the migration to succeed. Default 300,000 ms. */
  timeoutMs?: number;
  /** How often `api` reads the migration's status. Default 1,000 ms. */
  pollIntervalMs?: number;
}

/** What {@link migrateStorageVersion} did. */
export interface StorageVersionMigrationResult {
  /** The CRD's storage version, which every object is now stored at. */
  storageVersion: string;
  /** How: by the StorageVersionMigration API, or read and written back. */
  method: 'api' | 'rewrite';
  /** Objects written back (`rewrite`; 0 for `api`, whose controller does the writing). */
  rewritten: number;
  /** `status.storedVersions` before the migration. */
  previousStoredVersions: string[];
  /** `status.storedVersions` after it: the storage version alone. */
  storedVersions: string[];
}

const crdApiVersion = 'apiextensions.k8s.io/v1';
const migrationKind = 'StorageVersionMigration';
const migrationVersions = ['v1beta1', 'v1alpha1'] as const;

type Crd = CustomResourceDefinitionObject & { status?: { storedVersions?: string[] } };

/**
 * Moves every stored object of a custom resource to its CRD's current storage version, then
 * records it: `status.storedVersions` becomes the storage version alone, after which the older
 * versions may be removed from the CRD (kube-apiserver refuses to drop a version still listed
 * there). Run it after changing the storage version (the operator's upgrade), with the
 * conversion webhook serving: objects stored at an older version are converted as they are
 * read.
 *
 * With the StorageVersionMigration API (`method` `api`, or `auto` where the cluster serves it)
 * it creates a `StorageVersionMigration` for the resource and waits for its `Succeeded`
 * condition. Otherwise (`rewrite`) it lists every object at the storage version and writes
 * each back unchanged (an update with its resourceVersion), as kube's storage version migrator
 * does: kube-apiserver stores what it writes at the storage version. An object changed or
 * deleted meanwhile needs no rewrite (the change stored it at the storage version), so
 * conflicts and not-found answers are skipped.
 *
 * Guarantees: when it resolves, every object that existed when it started is stored at the
 * storage version, and `status.storedVersions` is `[storageVersion]`. Idempotent: running it
 * again rewrites the objects again and changes nothing else.
 *
 * @throws {Error} when the CRD has no storage version, when its storage version changed
 *   during the migration (run it again), when a StorageVersionMigration fails or does not
 *   succeed within `timeoutMs`, or when `method` is `api` and the cluster does not serve
 *   the API.
 * @throws {ApiError} as the server answers reads and writes (a conversion webhook that fails
 *   makes the list fail with its 500: fix the webhook, then run it again).
 */
export async function migrateStorageVersion(
  client: Client,
  crdName: string,
  options: MigrateStorageVersionOptions = {},
): Promise<StorageVersionMigrationResult> {
  const crd = await client.get<Crd>(crdApiVersion, 'CustomResourceDefinition', crdName);
  const storageVersion = storageVersionOf(crd);
  const previousStoredVersions = [...(crd.status?.storedVersions ?? [])];
  const migrationApi = await migrationApiVersion(client, options.method ?? 'auto');
  let rewritten = 0;
  if (migrationApi !== undefined) {
    await migrateByApi(client, crd, migrationApi, options);
  } else {
    rewritten = await rewriteAll(client, crd, storageVersion);
  }
  const storedVersions = await recordStorageVersion(client, crdName, storageVersion);
  return {
    storageVersion,
    method: migrationApi === undefined ? 'rewrite' : 'api',
    rewritten,
    previousStoredVersions,
    storedVersions,
  };
}

function storageVersionOf(crd: Crd): string {
  const version = crd.spec.versions.find((v) => v.storage)?.name;
  if (version === undefined) {
    throw new Error(
      `CustomResourceDefinition ${crd.metadata.name} has no storage version: mark one of spec.versions storage: true`,
    );
  }
  return version;
}

/**
 * The StorageVersionMigration apiVersion to use, or undefined to rewrite the objects here.
 *
 * @throws {Error} for `api` on a cluster that does not serve it.
 */
async function migrationApiVersion(
  client: Client,
  method: StorageVersionMigrationMethod,
): Promise<string | undefined> {
  if (method === 'rewrite') return undefined;
  for (const version of migrationVersions) {
    const apiVersion = `storagemigration.k8s.io/${version}`;
    try {
      await client.restMapper.resourceFor(apiVersion, migrationKind);
      return apiVersion;
    } catch (error) {
      if (!NoKindMatchError.isInstance(error)) throw error;
    }
  }
  if (method === 'api') {
    throw new Error(
      'the cluster does not serve storagemigration.k8s.io (StorageVersionMigration): enable it (the StorageVersionMigrator feature gate and its runtime-config), or migrate with method "rewrite"',
    );
  }
  return undefined;
}

/** Reads every object at the storage version and writes it back; returns how many. */
async function rewriteAll(client: Client, crd: Crd, storageVersion: string): Promise<number> {
  const apiVersion = `${crd.spec.group}/${storageVersion}`;
  const list = await client.list(apiVersion, crd.spec.names.kind);
  let rewritten = 0;
  for (const object of list.items) {
    try {
      await client.update({ ...object, apiVersion, kind: crd.spec.names.kind });
      rewritten++;
    } catch (error) {
      // Changed meanwhile (stored at the storage version by that write) or gone: done.
      if (!isConflict(error) && !isNotFound(error)) throw error;
    }
  }
  return rewritten;
}

/** Creates a StorageVersionMigration for the CRD's resource and waits until it succeeds. */
async function migrateByApi(
  client: Client,
  crd: Crd,
  apiVersion: string,
  options: MigrateStorageVersionOptions,
): Promise<void> {
  const resource = { group: crd.spec.group, resource: crd.spec.names.plural };
  const spec = apiVersion.endsWith('/v1alpha1')
    ? { resource: { ...resource, version: storageVersionOf(crd) } }
    : { resource };
  const created = await client.create<KubernetesObject>({
    apiVersion,
    kind: migrationKind,
    metadata: { generateName: `${crd.metadata.name.slice(0, 200)}-` },
    spec,
  });
  const name = created.metadata?.name ?? '';
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  for (;;) {
    const migration = await client.get<KubernetesObject>(apiVersion, migrationKind, name);
    const conditions = ((migration.status as { conditions?: unknown } | undefined)?.conditions ??
      []) as Array<{ type?: string; status?: string; message?: string }>;
    const holds = (type: string) => conditions.find((c) => c.type === type && c.status === 'True');
    if (holds('Succeeded')) return;
    const failed = holds('Failed');
    if (failed) {
      throw new Error(
        `StorageVersionMigration ${name} of ${resource.resource}.${resource.group} failed: ${failed.message ?? 'no message'}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(
        `StorageVersionMigration ${name} of ${resource.resource}.${resource.group} did not succeed within ${options.timeoutMs ?? 300_000} ms: is kube-controller-manager running its storage version migrator?`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollIntervalMs ?? 1_000));
  }
}

/**
 * Sets `status.storedVersions` to `[storageVersion]`, retrying on conflicts.
 *
 * @throws {Error} when the CRD's storage version is no longer `storageVersion`.
 */
async function recordStorageVersion(
  client: Client,
  crdName: string,
  storageVersion: string,
): Promise<string[]> {
  for (let attempt = 0; ; attempt++) {
    const crd = await client.get<Crd>(crdApiVersion, 'CustomResourceDefinition', crdName);
    if (storageVersionOf(crd) !== storageVersion) {
      throw new Error(
        `the storage version of CustomResourceDefinition ${crdName} changed from ${storageVersion} to ${storageVersionOf(crd)} during the migration: run the migration again`,
      );
    }
    try {
      const updated = await client.updateStatus<Crd>({
        ...crd,
        status: { ...crd.status, storedVersions: [storageVersion] },
      });
      return updated.status?.storedVersions ?? [];
    } catch (error) {
      if (!isConflict(error) || attempt >= 4) throw error;
    }
  }
}
