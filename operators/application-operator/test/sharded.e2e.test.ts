// config/sharded on the local API server with RBAC enforced: two replicas of the operator,
// each run with the rendered Deployment's arguments (--sharding among them) as its
// ServiceAccount with exactly the rendered (generated) rules, share the Applications: each
// Application is labelled for one replica, which creates its Deployment, and the ring's
// Leases name both replicas. It proves the generated RBAC is all a sharded replica needs.
import { Client, type KubernetesObject } from '@ops/core';
import { shardLabel, shardNameLabel } from '@ops/core/sharding';
import { Environment, eventually, type ServiceAccountIdentity } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationResource } from '../src/api/v1/application.js';
import { applicationShardingRing } from '../src/operator.js';
import { installShardedConfig, shardedNamespace, startShardedReplica } from './sharded-replica.js';
import { type K8sObject, removeTemporaryDirectories } from './tooling-support.js';

const namespace = shardedNamespace;
const replicaNames = ['sharded-replica-a', 'sharded-replica-b'];
const applications = Array.from({ length: 8 }, (_, i) => `sharded-app-${i}`);

let env: Environment;
let admin: Client;
let rendered: K8sObject[];
let operator: ServiceAccountIdentity;

beforeAll(async () => {
  env = await Environment.start({
    apiServer: { rbac: true },
    crds: [applicationResource.crd() as unknown as KubernetesObject],
  });
  admin = new Client({ kubeConfig: env.kubeConfig });
  ({ rendered, operator } = await installShardedConfig(env, admin));
}, 60_000);

afterAll(async () => {
  admin?.close();
  await env?.stop();
  await removeTemporaryDirectories();
});

describe('config/sharded', () => {
  it('shares the Applications between two replicas, each creating the Deployments of its own', async () => {
    const replicas = replicaNames.map((identity) =>
      startShardedReplica({
        rendered,
        kubeconfigPath: operator.kubeconfigPath,
        identity,
      }),
    );
    try {
      for (const name of applications) {
        await admin.create({
          apiVersion: 'core.crd.lixueduan.com/v1',
          kind: 'Application',
          metadata: { name, namespace: 'default' },
          spec: { enabled: true, image: 'nginx:1.22' },
        } as KubernetesObject);
      }
      const label = shardLabel(applicationShardingRing);
      await eventually(
        async () => {
          const owners = new Set<string>();
          for (const name of applications) {
            const application = await admin.get<KubernetesObject>(
              'core.crd.lixueduan.com/v1',
              'Application',
              name,
              'default',
            );
            const owner = application.metadata?.labels?.[label];
            expect(replicaNames).toContain(owner);
            owners.add(owner as string);
            // The owning replica reconciled it: its Deployment exists, with the owner's label.
            const deployment = await admin.get<KubernetesObject>(
              'apps/v1',
              'Deployment',
              `app-${name}`,
              'default',
            );
            expect(deployment.metadata?.labels?.[label]).toBe(owner);
          }
          // Eight Applications over two replicas: both own some (the hash ring's split of
          // these names; each replica holds its Lease in the ring either way).
          expect([...owners].sort()).toEqual(replicaNames);
        },
        { timeoutMs: 90_000 },
      );
      const leases = await admin.list<KubernetesObject>('coordination.k8s.io/v1', 'Lease', {
        namespace,
      });
      expect(
        leases.items
          .map((lease) => lease.metadata?.labels?.[shardNameLabel])
          .filter((shard) => shard !== undefined)
          .sort(),
      ).toEqual(replicaNames);
    } finally {
      for (const replica of replicas) replica.stop();
      expect(await Promise.all(replicas.map((replica) => replica.exited))).toEqual([0, 0]);
    }
  }, 180_000);
});
