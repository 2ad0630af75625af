import type { KubernetesObject } from '@ops/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../cache/local-cluster.test-helper.js';
import { Client } from '../client/client.js';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { Manager } from './manager.js';

let server: LocalApiServer;
beforeAll(async () => {
  server = await startLocalApiServer();
});
afterAll(async () => {
  await server.stop();
});

/**
 * Runs a manager whose controller stamps each ConfigMap of `namespace` once (a merge patch of
 * an annotation) and returns; resolves with the reconciles of each once every object is
 * stamped and a later change by another writer has been reconciled.
 */
async function reconcilesPerObject(
  namespace: string,
  skipOwnWriteEvents: boolean,
): Promise<Record<string, number>> {
  const admin = new Client({ kubeConfig: server.kubeConfig });
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  const names = Array.from({ length: 20 }, (_, i) => `cm-${i}`);
  for (const name of names)
    await admin.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
  const manager = new Manager({
    kubeConfig: server.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace,
    skipOwnWriteEvents,
  });
  const reconciles: Record<string, number> = {};
  manager
    .controller('stamper')
    .for({ apiVersion: 'v1', kind: 'ConfigMap' })
    .complete(async (request) => {
      reconciles[request.name] = (reconciles[request.name] ?? 0) + 1;
      const cm = await manager.client.get<KubernetesObject>(
        'v1',
        'ConfigMap',
        request.name,
        request.namespace,
      );
      if (cm.metadata?.annotations?.stamped !== 'yes')
        await manager.client.patch(cm, { metadata: { annotations: { stamped: 'yes' } } }, 'merge');
      return {};
    });
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  try {
    await eventually(async () => {
      const list = await admin.list('v1', 'ConfigMap', { namespace });
      return list.items.every((cm) => cm.metadata?.annotations?.stamped === 'yes');
    }, 'every ConfigMap is stamped');
    // Delivered own events reconcile each object a second time: let them all run first.
    const perObject = skipOwnWriteEvents ? 1 : 2;
    await eventually(
      () => names.every((name) => reconciles[name] === perObject),
      () => `every ConfigMap is reconciled ${perObject} times (${JSON.stringify(reconciles)})`,
    );
    // Someone else's change is still reconciled; once it is, every own event has been
    // delivered or skipped (the watch is ordered).
    await admin.patch(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-0', namespace } },
      { data: { changed: 'by someone else' } },
      'merge',
    );
    await eventually(
      () => (reconciles['cm-0'] ?? 0) > perObject,
      'the other writer reconciles cm-0',
    );
  } finally {
    stop.abort();
    await running;
    admin.close();
  }
  return reconciles;
}

describe("a controller's own writes", () => {
  it('do not reconcile it again: one reconcile per object', async () => {
    const reconciles = await reconcilesPerObject('own-writes-skipped', true);
    const { 'cm-0': changed, ...rest } = reconciles;
    expect(changed).toBe(2);
    expect(Object.values(rest)).toEqual(Array(19).fill(1));
  });

  it('reconcile it again with skipOwnWriteEvents: false, as controller-runtime does', async () => {
    const reconciles = await reconcilesPerObject('own-writes-delivered', false);
    const { 'cm-0': changed, ...rest } = reconciles;
    expect(changed).toBe(3);
    expect(Object.values(rest)).toEqual(Array(19).fill(2));
  });
});
