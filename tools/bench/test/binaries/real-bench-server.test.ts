import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchServer } from '../../src/harness/bench-server.js';
import { RawHttp } from '../../src/harness/raw-http.js';
import { realServerSource } from '../../src/harness/server-source.js';

let server: BenchServer;
let http: RawHttp;

beforeAll(async () => {
  const source = await realServerSource({ log: () => undefined });
  server = await source.start();
  http = new RawHttp(server);
});

afterAll(async () => {
  http?.close();
  await server?.stop();
});

describe('RealBenchServer', () => {
  it('serves HTTPS with a kubeconfig that carries its CA and an admin token', () => {
    expect(server.kind).toBe('real');
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const config = server.kubeConfig();
    expect(config.getCurrentCluster()?.caData).toBeTruthy();
    expect(config.getCurrentUser()?.token).toBeTruthy();
  });

  it('seeds Running Pods over the API, each a create and a status write, and times it', async () => {
    await server.seedPods('seeded', 30);
    const list = JSON.parse((await http.get('/api/v1/namespaces/seeded/pods')).toString()) as {
      items: Array<{
        metadata: { uid?: string; managedFields?: unknown[] };
        status: { phase?: string };
      }>;
    };
    expect(list.items).toHaveLength(30);
    expect(new Set(list.items.map((pod) => pod.metadata.uid)).size).toBe(30);
    for (const pod of list.items) {
      expect(pod.status.phase).toBe('Running');
      // kube-apiserver tracks field managers, as on any cluster.
      expect(pod.metadata.managedFields?.length).toBeGreaterThan(0);
    }
    expect(server.seedings).toEqual([
      { kind: 'Pods', namespace: 'seeded', objects: 30, requests: 60, ms: expect.any(Number) },
    ]);
  });

  it('counts ConfigMap writes from its metrics and notices a change in the revision token', async () => {
    await server.seedConfigMaps('counted', 'cm', 3, { role: 'source' });
    const writes = await server.writes('counted', 'configmaps');
    const revision = await server.revision('counted', 'configmaps');
    // Nothing changed: the same token, the same count.
    expect(await server.revision('counted', 'configmaps')).toBe(revision);
    expect(await server.writes('counted', 'configmaps')).toBe(writes);
    await http.send(
      'PATCH',
      '/api/v1/namespaces/counted/configmaps/cm-1',
      { data: { changed: 'yes' } },
      'application/merge-patch+json',
    );
    expect(await server.writes('counted', 'configmaps')).toBe(writes + 1);
    expect(await server.revision('counted', 'configmaps')).not.toBe(revision);
    const list = JSON.parse(
      (await http.get('/api/v1/namespaces/counted/configmaps')).toString(),
    ) as {
      items: Array<{ metadata: { labels?: Record<string, string> } }>;
    };
    expect(list.items.filter((item) => item.metadata.labels?.role === 'source')).toHaveLength(3);
  });

  it('runs a garbage collection in kube-apiserver on request', async () => {
    await expect(server.collectGarbage()).resolves.toBeUndefined();
  });
});
