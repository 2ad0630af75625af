import { expect, it } from 'vitest';
import { kubeRequest } from '../kube-request.js';
import { RunPlane } from './run-plane.js';

it('on the local plane, gives each run a control plane of its own with the scenario namespace, stopped when the run closes', async () => {
  const plane = await RunPlane.start(
    { namespace: 'shop', environment: { controlPlane: 'binaries' } },
    { controlPlane: 'local' },
  );
  expect(plane.kind).toBe('local');
  expect(plane.excludedKinds).toEqual({});
  const first = await plane.openRun();
  const second = await plane.openRun();
  try {
    expect([first.namespace, first.reportedNamespace]).toEqual(['shop', 'shop']);
    expect(first.env.kubeConfig.getCurrentCluster()?.server).not.toBe(
      second.env.kubeConfig.getCurrentCluster()?.server,
    );
    const namespace = await kubeRequest(second.env.kubeConfig, 'GET', '/api/v1/namespaces/shop');
    expect(namespace.status).toBe(200);
  } finally {
    await first.close();
    await second.close();
    await plane.stop();
  }
  await expect(kubeRequest(first.env.kubeConfig, 'GET', '/api/v1/namespaces')).rejects.toThrow();
});

it('refuses a scenario namespace that cannot name a run namespace, saying why', async () => {
  await expect(RunPlane.start({ namespace: 'Shop_1' })).rejects.toThrow(
    `the scenario's namespace "Shop_1" is not a namespace name of at most 55 characters`,
  );
  const plane = await RunPlane.start({}, { controlPlane: 'local' });
  await expect(plane.openRun('x'.repeat(60))).rejects.toThrow('at most 55 characters');
});
