import { afterEach, describe, expect, it } from 'vitest';
import { LocalBenchServer } from './local-bench-server.js';
import { RawHttp } from './raw-http.js';

let server: LocalBenchServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('LocalBenchServer', () => {
  it('seeds realistic Running Pods and counts the writes it handles by resource', async () => {
    server = await LocalBenchServer.start();
    await server.seedPods('seeded', 20);
    expect(server.seedings).toEqual([
      { kind: 'Pods', namespace: 'seeded', objects: 20, requests: 40, ms: expect.any(Number) },
    ]);
    const http = new RawHttp(server);
    const list = JSON.parse((await http.get('/api/v1/namespaces/seeded/pods')).toString()) as {
      items: Array<{ metadata: { uid?: string }; status: { phase?: string }; spec: object }>;
    };
    expect(list.items).toHaveLength(20);
    for (const pod of list.items) {
      expect(pod.metadata.uid).toBeTruthy();
      expect(pod.status.phase).toBe('Running');
    }
    expect(new Set(list.items.map((pod) => pod.metadata.uid)).size).toBe(20);
    // Seeding goes around the write counter; API writes do not.
    expect(await server.writes('seeded', 'pods')).toBe(0);
    const revision = await server.revision();
    await server.seedConfigMaps('counted', 'cm', 1);
    await http.send(
      'PATCH',
      '/api/v1/namespaces/counted/configmaps/cm-0',
      { data: { a: 'b' } },
      'application/merge-patch+json',
    );
    expect(await server.writes('counted', 'configmaps')).toBe(1);
    expect(await server.writes('counted', 'pods')).toBe(0);
    expect(await server.revision()).not.toBe(revision);
    http.close();
  });

  it('collects the garbage of the server process on request', async () => {
    server = await LocalBenchServer.start();
    await server.seedPods('heap', 200);
    const heapUsed = await server.collectGarbage();
    // The server process holds its store: some megabytes, well under a gigabyte.
    expect(heapUsed).toBeGreaterThan(1_000_000);
    expect(heapUsed).toBeLessThan(1_000_000_000);
  });

  it('gives a kubeconfig client-node accepts for a plain-HTTP server', async () => {
    server = await LocalBenchServer.start();
    const config = server.kubeConfig();
    expect(config.getCurrentCluster()?.server).toBe(server.url);
    expect(config.getCurrentCluster()?.skipTLSVerify).toBe(true);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
