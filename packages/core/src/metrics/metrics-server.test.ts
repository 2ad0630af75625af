import { Gauge } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { WorkQueue } from '../queue/work-queue.js';
import { MetricsRegistry } from './metrics-registry.js';
import { defaultMetricsPort, MetricsServer } from './metrics-server.js';

const servers: MetricsServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});

async function started(metrics: MetricsRegistry) {
  const server = new MetricsServer({ metrics, host: '127.0.0.1', port: 0 });
  servers.push(server);
  await server.start();
  return server;
}

describe('MetricsServer', () => {
  it('serves /metrics in the Prometheus text format', async () => {
    const metrics = new MetricsRegistry();
    metrics.controller('app').observeReconcile({ result: 'success', durationSeconds: 0.1 });
    const queue = new WorkQueue({
      name: 'app',
      clock: new FakeClock(),
      metrics: metrics.workqueueMetrics,
    });
    queue.add('default/a');
    metrics.cacheObjects('pods', () => 12);
    const server = await started(metrics);
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const body = await response.text();
    expect(body).toContain(
      'controller_runtime_reconcile_total{controller="app",result="success"} 1',
    );
    expect(body).toContain('workqueue_depth{name="app",controller="app",priority=""} 1');
    expect(body).toContain('workqueue_adds_total{name="app",controller="app"} 1');
    expect(body).toContain('ops_cache_objects{resource="pods"} 12');
  });

  it('404s other paths, 405s other methods, 500s when gathering fails', async () => {
    const metrics = new MetricsRegistry();
    const server = await started(metrics);
    const base = `http://127.0.0.1:${server.port}`;
    for (const path of ['/', '/metrics/', '/healthz']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toMatch(/use \/metrics/);
    }
    const post = await fetch(`${base}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.text();
    new Gauge({
      name: 'ops_broken',
      help: 'A collector that fails',
      registers: [metrics.registry],
      collect() {
        throw new Error('collector exploded');
      },
    });
    const failed = await fetch(`${base}/metrics`);
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('error gathering metrics: collector exploded\n');
  });

  it('has the lifecycle of the health server', async () => {
    expect(defaultMetricsPort).toBe(8080);
    const server = new MetricsServer({
      metrics: new MetricsRegistry(),
      host: '127.0.0.1',
      port: 0,
    });
    await server.start();
    expect(server.port).toBeGreaterThan(0);
    await server.stop();
    expect(server.port).toBeUndefined();
    await expect(server.start()).rejects.toMatchObject({ reason: 'Stopped' });
  });
});
