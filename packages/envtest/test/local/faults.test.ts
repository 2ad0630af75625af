import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ controlPlane: 'local' });
});
afterAll(async () => {
  await cluster.stop();
});

const server = () => {
  const local = cluster.env.server;
  if (local === undefined) throw new Error('these tests need the local API server');
  return local;
};

describe('fault injection (local server only)', () => {
  it('answers chosen requests with 409, 429 or 500, a given number of times', async () => {
    server().injectFault({ verb: 'create', resource: 'configmaps', code: 429, count: 1 });
    const limited = await cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
      metadata: { name: 'f1' },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(
      (
        await cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
          metadata: { name: 'f1' },
        })
      ).status,
    ).toBe(201);
    server().injectFault({ verb: 'update', code: 409, count: 1 });
    const conflict = await cluster.request('PUT', '/api/v1/namespaces/default/configmaps/f1', {
      metadata: { name: 'f1' },
      data: { a: 'b' },
    });
    expect(conflict.body.reason).toBe('Conflict');
    server().injectFault({ verb: 'get', resource: 'configmaps', name: 'f1', code: 500, count: 1 });
    expect(
      (await cluster.request('GET', '/api/v1/namespaces/default/configmaps/f1')).body.reason,
    ).toBe('InternalError');
    expect((await cluster.request('GET', '/api/v1/namespaces/default/configmaps/f1')).status).toBe(
      200,
    );
  });

  it('delays requests', async () => {
    server().injectFault({ verb: 'list', resource: 'secrets', delayMs: 150, count: 1 });
    const started = Date.now();
    expect((await cluster.request('GET', '/api/v1/secrets')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('is driven over HTTP by the control API, admin only', async () => {
    const added = await cluster.request('POST', '/__ops/faults', {
      verb: 'delete',
      code: 500,
      count: 1,
    });
    expect(added.body.faults).toHaveLength(1);
    expect(
      (await cluster.request('DELETE', '/api/v1/namespaces/default/configmaps/f1')).status,
    ).toBe(500);
    expect(
      (await cluster.request('POST', '/__ops/restart', { keepHistory: true })).body.restarted,
    ).toBe(true);
    const token = server().serviceAccountToken('default', 'someone');
    expect(
      (await cluster.request('POST', '/__ops/drop-watches', {}, { kubeConfig: tokenConfig(token) }))
        .status,
    ).toBe(403);
    expect((await cluster.request('GET', '/__ops/nothing')).status).toBe(404);
  });
});

function tokenConfig(token: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromString(cluster.env.kubeconfig);
  const user = config.getCurrentUser();
  if (user) (user as { token?: string }).token = token;
  return config;
}
