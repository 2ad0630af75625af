import { Client } from '@ops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment } from '../environment.js';
import { inNamespace } from './in-namespace.js';
import { readOutcome } from './outcome.js';

describe('a scenario with objects of a cluster-scoped kind', () => {
  let env: Environment;
  let client: Client;
  beforeAll(async () => {
    env = await Environment.start({ controlPlane: 'local' });
    client = new Client({ kubeConfig: env.kubeConfig });
  });
  afterAll(async () => {
    client?.close();
    await env?.stop();
  });

  it("places namespaced objects in the scenario's namespace and leaves cluster-scoped ones as they are", async () => {
    const placed = await inNamespace(client, 'explore', [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' } },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'reader' },
      },
    ]);
    expect(placed.map((object) => object.metadata)).toEqual([
      { name: 'settings', namespace: 'explore' },
      { name: 'reader' },
    ]);
  });

  it('reads the objects of a cluster-scoped kind into the outcome', async () => {
    await client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'explore-reader' },
      rules: [],
    } as never);
    const outcome = await readOutcome(env.kubeConfig, {
      namespace: 'default',
      kinds: [{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole' }],
    });
    const names = (outcome.objects['rbac.authorization.k8s.io/v1/ClusterRole'] ?? []).map(
      (object) => (object as { metadata: { name: string } }).metadata.name,
    );
    expect(names).toContain('explore-reader');
  });
});
