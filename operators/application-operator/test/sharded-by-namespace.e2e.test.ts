// config/sharded with --sharding-by=namespace, as the operator's ServiceAccount under exactly
// the rendered (generated) RBAC: two replicas share the Applications of six namespaces, each
// namespace's Applications reconciled by one replica. On kube-apiserver with server-side
// sharded list and watch (alpha since 1.36, the ShardedListAndWatch gate turned on here) the
// replicas select their hash ranges on the server: no Application is labelled, and the ring's
// assignment Lease names both replicas, active. On an older release (the test command's 1.35
// run) and on the local API server (RBAC enforced) the same flags shard by labels, hashed by
// namespace. Either way the generated RBAC is all such a replica needs.
import { Client, type KubernetesObject } from '@ops/core';
import { assignmentLeaseName, readAssignment, shardLabel } from '@ops/core/sharding';
import {
  chooseControlPlane,
  Environment,
  eventually,
  freePort,
  pinnedControlPlane,
  type ServiceAccountIdentity,
} from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationResource } from '../src/api/v1/application.js';
import { applicationShardingRing } from '../src/operator.js';
import { installShardedConfig, shardedNamespace, startShardedReplica } from './sharded-replica.js';
import { type K8sObject, removeTemporaryDirectories } from './tooling-support.js';

const namespace = shardedNamespace;
const replicaNames = ['by-namespace-a', 'by-namespace-b'];
// Names that differ early (FNV-1a spreads names differing only at their end poorly).
const spaces = ['payments', 'search', 'checkout', 'billing', 'identity', 'catalog'];

let env: Environment;
let admin: Client;
let rendered: K8sObject[];
let operator: ServiceAccountIdentity;
let serverSide: boolean;

beforeAll(async () => {
  const release = (await pinnedControlPlane()).versions.kubernetes;
  serverSide = chooseControlPlane() === 'binaries' && Number(release.split('.')[1]) >= 36;
  env = await Environment.start({
    apiServer: { rbac: true },
    ...(serverSide ? { featureGates: { ShardedListAndWatch: true } } : {}),
    crds: [applicationResource.crd() as unknown as KubernetesObject],
  });
  admin = new Client({ kubeConfig: env.kubeConfig });
  ({ rendered, operator } = await installShardedConfig(env, admin));
  for (const space of spaces)
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: space } });
}, 120_000);

afterAll(async () => {
  admin?.close();
  await env?.stop();
  await removeTemporaryDirectories();
});

describe('config/sharded --sharding-by=namespace, as the operator ServiceAccount', () => {
  it('reconciles every namespace on one of two replicas, by server-side shard selectors where the release has them', async () => {
    const ports = await Promise.all(replicaNames.map(() => freePort()));
    const replicas = replicaNames.map((identity, i) =>
      startShardedReplica({
        rendered,
        kubeconfigPath: operator.kubeconfigPath,
        identity,
        extraArgs: ['--sharding-by=namespace'],
        metricsPort: ports[i] as number,
      }),
    );
    try {
      for (const space of spaces)
        for (const name of ['web', 'api'])
          await admin.create({
            apiVersion: 'core.crd.lixueduan.com/v1',
            kind: 'Application',
            metadata: { name, namespace: space },
            spec: { enabled: true, image: 'nginx:1.22' },
          } as KubernetesObject);
      // Each Application's Deployment, made by whichever replica owns its namespace.
      await eventually(
        async () => {
          for (const space of spaces)
            for (const name of ['web', 'api'])
              await admin.get<KubernetesObject>('apps/v1', 'Deployment', `app-${name}`, space);
          return true;
        },
        { timeoutMs: 90_000, description: 'a Deployment for every Application' },
      );
      const label = shardLabel(applicationShardingRing);
      const applications = (
        await admin.list<KubernetesObject>('core.crd.lixueduan.com/v1', 'Application')
      ).items;
      if (serverSide) {
        // Nothing labelled; the assignment names both replicas, active.
        expect(applications.filter((object) => label in (object.metadata?.labels ?? {}))).toEqual(
          [],
        );
        await eventually(
          async () => {
            const assignment = readAssignment(
              await admin.get<KubernetesObject>(
                'coordination.k8s.io/v1',
                'Lease',
                assignmentLeaseName(applicationShardingRing),
                namespace,
              ),
            );
            return (
              assignment?.active === assignment?.generation &&
              assignment?.activeMembers.join(',') === replicaNames.join(',')
            );
          },
          { timeoutMs: 60_000, description: 'both replicas in the active generation' },
        );
        // Each replica caches only the Applications of its namespaces: kube-apiserver filters
        // the custom resources' watches too (it echoes no shardInfo for them).
        await eventually(
          async () => {
            const counts = await Promise.all(
              ports.map(async (port) => {
                const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
                const line = text
                  .split('\n')
                  .find((sample) => sample.startsWith('ops_sharding_shard_objects{'));
                return Number(line?.split(' ').pop());
              }),
            );
            expect(counts.every((count) => count > 0)).toBe(true);
            expect(counts.reduce((a, b) => a + b, 0)).toBe(applications.length);
            return true;
          },
          { timeoutMs: 30_000, description: "each replica's cache holding its share alone" },
        );
      } else {
        // Labels, one shard per namespace, a replica's.
        for (const space of spaces) {
          const shards = new Set(
            applications
              .filter((object) => object.metadata?.namespace === space)
              .map((object) => object.metadata?.labels?.[label]),
          );
          expect(shards.size, space).toBe(1);
          expect(replicaNames).toContain([...shards][0]);
        }
      }
    } finally {
      for (const replica of replicas) replica.stop();
      expect(await Promise.all(replicas.map((replica) => replica.exited))).toEqual([0, 0]);
    }
  }, 240_000);
});
