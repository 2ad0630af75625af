import { afterEach, describe, expect, it } from 'vitest';
import { BenchServer } from './bench-server.js';
import { RawHttp } from './raw-http.js';

let server: BenchServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('BenchServer', () => {
  it('seeds realistic Running Pods and counts the writes it handles by namespace', async () => {
    server = await BenchServer.start();
    await server.seedPods('seeded', 20);
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
    const before = await server.writes();
    expect(before.byNamespace.seeded ?? 0).toBe(0);
    const revision = await server.revision();
    await server.seedConfigMaps('counted', 'cm', 1);
    await http.send(
      'PATCH',
      '/api/v1/namespaces/counted/configmaps/cm-0',
      { data: { a: 'b' } },
      'application/merge-patch+json',
    );
    const after = await server.writes();
    expect(after.byNamespace.counted).toBe(1);
    expect(after.total - before.total).toBe(1);
    expect(await server.revision()).toBeGreaterThan(revision);
    http.close();
  });

  it('collects the garbage of the server process on request', async () => {
    server = await BenchServer.start();
    await server.seedPods('heap', 200);
    const heapUsed = await server.collectGarbage();
    // The server process holds its store: some megabytes, well under a gigabyte.
    expect(heapUsed).toBeGreaterThan(1_000_000);
    expect(heapUsed).toBeLessThan(1_000_000_000);
  });

  it('gives a kubeconfig client-node accepts for a plain-HTTP server', async () => {
    server = await BenchServer.start();
    const config = server.kubeConfig();
    expect(config.getCurrentCluster()?.server).toBe(server.url);
    expect(config.getCurrentCluster()?.skipTLSVerify).toBe(true);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
