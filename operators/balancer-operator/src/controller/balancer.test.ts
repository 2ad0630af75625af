import { ApiError, type KubernetesObject, type Service } from '@ops/core';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Balancer } from '../api/v1alpha1/balancer.js';
import { type BalancerReconcilerDeps, balancerReconciler, obsoleteRecheckMs } from './balancer.js';
import { backendNameLabel, balancerNameLabel } from './balancer-names.js';
import { testBalancer } from './test-balancer.js';

const notFound = () =>
  new ApiError(404, 'NotFound', 'not found', {
    kind: 'Status',
    code: 404,
    reason: 'NotFound',
    message: 'not found',
  });

/**
 * The reconciler over an in-memory store of objects (keyed `Kind/name`, one namespace), as
 * the API server would keep them: created, updated, deleted (at once: no finalizers) and
 * status-patched. Records the writes.
 */
function storeReconciler(objects: KubernetesObject[]) {
  const store = new Map(objects.map((object) => [key(object), structuredClone(object)]));
  const writes: string[] = [];
  let version = 1;
  const stored = (object: KubernetesObject) => {
    const copy = structuredClone(object);
    copy.metadata = { ...copy.metadata, resourceVersion: String(++version) };
    store.set(key(copy), copy);
    return structuredClone(copy);
  };
  const client = {
    get: async (ref: KubernetesObject, nameOrOptions?: unknown) => {
      const name = typeof nameOrOptions === 'string' ? nameOrOptions : ref.metadata?.name;
      const found = store.get(`${ref.kind}/${name}`);
      if (found === undefined) throw notFound();
      return structuredClone(found);
    },
    list: async (kind: { kind: string }) => ({
      items: [...store.values()].filter((object) => object.kind === kind.kind),
    }),
    create: async (object: KubernetesObject) => {
      writes.push(`create ${key(object)}`);
      return stored(object);
    },
    update: async (object: KubernetesObject) => {
      writes.push(`update ${key(object)}`);
      return stored(object);
    },
    delete: async (object: KubernetesObject) => {
      writes.push(`delete ${key(object)}`);
      if (!store.delete(key(object))) throw notFound();
    },
    patchStatus: async (object: KubernetesObject, patch: { status: Balancer['status'] }) => {
      writes.push(`patch status ${key(object)}`);
      const live = store.get(key(object)) as Balancer;
      return stored({ ...live, status: { ...live.status, ...patch.status } } as Balancer);
    },
  } as unknown as BalancerReconcilerDeps['client'];
  const reconcile = balancerReconciler({
    client,
    recorder: { event: () => undefined } as unknown as BalancerReconcilerDeps['recorder'],
  });
  const context = { log: pino({ level: 'silent' }), signal: new AbortController().signal };
  return {
    store,
    writes,
    reconcile: () => reconcile({ namespace: 'default', name: 'balancer-sample' }, context),
  };
}

const key = (object: KubernetesObject) => `${object.kind}/${object.metadata?.name}`;

describe('balancerReconciler', () => {
  it('asks to run again after deleting an obsolete backend Service, and then counts it gone', async () => {
    // The sample without its v3 backend, whose Service (controlled by it) is still there.
    const balancer = testBalancer();
    balancer.spec.backends = balancer.spec.backends.filter((backend) => backend.name !== 'v3');
    const obsolete: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'balancer-sample-v3-backend',
        namespace: 'default',
        labels: { [balancerNameLabel]: 'balancer-sample', [backendNameLabel]: 'v3' },
        ownerReferences: [
          {
            apiVersion: balancer.apiVersion,
            kind: 'Balancer',
            name: 'balancer-sample',
            uid: 'balancer-uid',
            controller: true,
          },
        ],
      },
      spec: { ports: [{ port: 80 }] },
    };
    const { store, writes, reconcile } = storeReconciler([balancer, obsolete]);

    // The event of its own delete does not wake the controller (the manager skips events of
    // its own writes): the reconcile that deleted the Service must ask for the next one, after
    // a fixed delay (a rate-limited requeue waits out the backoff of earlier failures).
    expect(await reconcile()).toEqual({ requeueAfterMs: obsoleteRecheckMs });
    expect(writes).toContain('delete Service/balancer-sample-v3-backend');
    expect(store.has('Service/balancer-sample-v3-backend')).toBe(false);

    expect(await reconcile()).toBeUndefined();
    expect((store.get('Balancer/balancer-sample') as Balancer).status).toMatchObject({
      activeBackendsNum: 2,
      obsoleteBackendsNum: 0,
    });
  });
});
