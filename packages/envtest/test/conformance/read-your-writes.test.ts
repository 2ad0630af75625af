import { defineCustomResource, type KubernetesObject, Manager } from '@ops/core';
import { resourceVersionOrderOf } from '@ops/core/cache';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

/**
 * The read-your-writes oracle of issue #31 on both planes (`pnpm test`: the local API
 * server; `pnpm test:binaries`: kube-apiserver): a controller writes the status of one
 * object back to back, each reconcile reading it through the manager's cached client, and
 * no reconcile ever sees a version older than its own last write. The loop advances through
 * `requeueAfterMs`.
 */

const writes = Number(process.env.OPS_RYW_WRITES ?? 10_000);

const Counter = defineCustomResource({
  group: 'ryw.ops.dev',
  kind: 'Counter',
  plural: 'counters',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      spec: Type.Object({ touched: Type.Integer() }),
      status: Type.Object({ count: Type.Optional(Type.Integer()) }),
    },
  ],
});
type CounterObject = KubernetesObject & {
  spec?: { touched?: number };
  status?: { count?: number };
};

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
  await cluster.env.installCrds([Counter.crd()]);
  await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'ryw' } });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

interface Outcome {
  reconciles: number;
  /** Reconciles whose read of the object was older than the controller's last status write. */
  stale: number;
  /** Reconciles beyond the first one and the one requeue after each write. */
  extra: number;
  conflicts: number;
  /** How the manager's cache compared resourceVersions (detected from `/version`). */
  order: string | undefined;
}

/**
 * Runs a manager whose controller raises `status.count` of Counter `name` by one per
 * reconcile until `target`, each write an `updateStatus` of the object it just read (so a
 * stale read would also fail with a Conflict); `during` runs alongside (another writer).
 */
async function countUp(
  name: string,
  target: number,
  during?: (done: () => boolean) => Promise<void>,
): Promise<Outcome> {
  await cluster.request('POST', '/apis/ryw.ops.dev/v1/namespaces/ryw/counters', {
    apiVersion: Counter.apiVersion,
    kind: Counter.kind,
    metadata: { name },
    spec: { touched: 0 },
  });
  const manager = new Manager({
    kubeConfig: cluster.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace: 'ryw',
  });
  const outcome: Outcome = { reconciles: 0, stale: 0, extra: 0, conflicts: 0, order: undefined };
  let lastWritten = 0;
  let requeues = 0;
  let finished = false;
  let finish: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => {
    finish = resolve;
  });
  manager
    .controller('counter')
    .for(Counter)
    .complete(async (request) => {
      if (request.name !== name) return {};
      outcome.reconciles++;
      const counter = await manager.client.get<CounterObject>(
        Counter.apiVersion,
        Counter.kind,
        request.name,
        request.namespace,
      );
      const count = counter.status?.count ?? 0;
      if (count < lastWritten) outcome.stale++;
      if (count >= target) {
        finished = true;
        finish();
        return {};
      }
      try {
        const written = await manager.client.updateStatus<CounterObject>({
          ...counter,
          status: { count: count + 1 },
        });
        lastWritten = written.status?.count ?? lastWritten;
      } catch (error) {
        if ((error as { reason?: string }).reason !== 'Conflict') throw error;
        outcome.conflicts++;
      }
      requeues++;
      return { requeueAfterMs: 1 };
    });
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  const alongside = during?.(() => finished);
  try {
    await Promise.race([
      reached,
      running.then(() => {
        throw new Error('the manager stopped before the counter reached its target');
      }),
    ]);
  } finally {
    stop.abort();
    await running;
    await alongside;
  }
  outcome.extra = outcome.reconciles - 1 - requeues;
  outcome.order = manager.cache.resourceVersionOrder;
  return outcome;
}

describe('read-your-writes (issue #31 oracle)', () => {
  it(`${writes} back-to-back status writes: no reconcile sees a version older than its own last write`, async () => {
    const outcome = await countUp('solo', writes);
    console.info(`read-your-writes oracle, ${writes} writes:`, outcome);
    expect(outcome.stale).toBe(0);
    expect(outcome.conflicts).toBe(0);
    // Integers compared on kube-apiserver 1.35 and later; exact versions on older servers
    // and on the local API server (which reports 1.33).
    const version = (await cluster.request('GET', '/version')).body;
    expect(outcome.order).toBe(resourceVersionOrderOf(version));
    expect(outcome.reconciles).toBeGreaterThanOrEqual(writes + 1);
    // No reconcile storm: few reconciles besides the one requeue per write. (An own write's
    // event that reached the queue while the requeue waited would share its slot, so this does
    // not tell own events apart; src/manager/own-write-events.test.ts in core does.)
    expect(outcome.extra).toBeLessThan(writes / 10);
  }, 600_000);

  it('with a concurrent writer changing the spec, reads still never go back', async () => {
    const target = Math.min(writes, 1000);
    const outcome = await countUp('shared', target, async (done) => {
      let touched = 0;
      while (!done()) {
        await cluster.request(
          'PATCH',
          '/apis/ryw.ops.dev/v1/namespaces/ryw/counters/shared',
          { spec: { touched: ++touched } },
          { contentType: 'application/merge-patch+json' },
        );
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    console.info(`read-your-writes with a concurrent writer, ${target} writes:`, outcome);
    expect(outcome.stale).toBe(0);
  }, 600_000);
});
