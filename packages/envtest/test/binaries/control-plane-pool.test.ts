import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureControlPlaneAssets } from '../../src/control-plane-assets.js';
import {
  acquirePooledControlPlane,
  type ControlPlanePool,
  controlPlanePoolVariable,
  startControlPlanePool,
} from '../../src/control-plane-pool.js';
import { Environment } from '../../src/environment.js';
import { eventually } from '../../src/eventually.js';
import { kubeRequest } from '../../src/kube-request.js';

// Runs with pnpm test:binaries: a pool of its own (not the run's, which this file's
// Environment would otherwise take its plane from), handing out real control planes.
const generous = { timeoutMs: 60_000, intervalMs: 100 };

let pool: ControlPlanePool;
let assetsDirectory: string;
beforeAll(async () => {
  assetsDirectory = process.env.KUBEBUILDER_ASSETS || (await ensureControlPlaneAssets()).directory;
  pool = await startControlPlanePool({ assetsDirectory, publish: false });
}, 120_000);
afterAll(async () => {
  await pool?.close();
});

const config = (kubeconfig: string) => {
  const loaded = new KubeConfig();
  loaded.loadFromString(kubeconfig);
  return loaded;
};
const answers = async (kubeconfig: string) =>
  (await kubeRequest(config(kubeconfig), 'GET', '/readyz').catch(() => undefined))?.status === 200;

describe('a control plane pool', () => {
  it('hands out each ready plane once, and stops it when it comes back', async () => {
    const first = await acquirePooledControlPlane(pool.url, assetsDirectory);
    const second = await acquirePooledControlPlane(pool.url, assetsDirectory);
    if (first === undefined || second === undefined) throw new Error('the pool refused its own');
    expect(pool.leased).toBe(2);
    expect(config(first.kubeconfig).getCurrentCluster()?.server).not.toBe(
      config(second.kubeconfig).getCurrentCluster()?.server,
    );
    expect(await answers(first.kubeconfig)).toBe(true);
    expect(await answers(second.kubeconfig)).toBe(true);

    await first.stop();
    await first.stop();
    expect(pool.leased).toBe(1);
    await eventually(async () => !(await answers(first.kubeconfig)), {
      ...generous,
      description: 'the returned plane stopped',
    });
    expect(await answers(second.kubeconfig)).toBe(true);
    await second.stop();
  }, 180_000);

  it('restarts a plane it handed out, keeping what etcd stores', async () => {
    const plane = await acquirePooledControlPlane(pool.url, assetsDirectory);
    if (plane === undefined) throw new Error('the pool refused its own');
    const created = await kubeRequest(
      config(plane.kubeconfig),
      'POST',
      '/api/v1/namespaces/default/configmaps',
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: '1' } },
    );
    expect(created.status).toBe(201);
    await plane.restartApiServer({ downtimeMs: 100 });
    const read = await kubeRequest(
      config(plane.kubeconfig),
      'GET',
      '/api/v1/namespaces/default/configmaps/kept',
    );
    expect(read.status).toBe(200);
    expect((read.body as { data?: unknown }).data).toEqual({ a: '1' });
    await plane.stop();
  }, 180_000);

  it('gives Environment.start its plane when the variable names it, and takes it back at stop', async () => {
    const before = process.env[controlPlanePoolVariable];
    process.env[controlPlanePoolVariable] = pool.url;
    let env: Environment | undefined;
    try {
      env = await Environment.start({ controlPlane: 'binaries' });
      expect(pool.leased).toBe(1);
      expect((await kubeRequest(env.kubeConfig, 'GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await env?.stop();
      if (before === undefined) delete process.env[controlPlanePoolVariable];
      else process.env[controlPlanePoolVariable] = before;
    }
    expect(pool.leased).toBe(0);
  }, 180_000);

  it('stops at close a plane never returned', async () => {
    const own = await startControlPlanePool({ assetsDirectory, publish: false, spares: 0 });
    const kept = await acquirePooledControlPlane(own.url, assetsDirectory);
    if (kept === undefined) throw new Error('the pool refused its own');
    expect(await answers(kept.kubeconfig)).toBe(true);
    await own.close();
    expect(await answers(kept.kubeconfig)).toBe(false);
  }, 180_000);
});
