import { request as httpRequest } from 'node:http';
import type { KubernetesObject } from '@ops/api';
import { setControllerReference } from '@ops/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../client/client.js';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { admissionAllowed } from '../webhook/admission-handler.js';
import { WebhookServer } from '../webhook/webhook-server.js';
import { Manager } from './manager.js';

let server: LocalApiServer;
beforeAll(async () => {
  server = await startLocalApiServer();
});
afterAll(async () => {
  await server.stop();
});

const quiet = pino({ level: 'silent' });
const eventually = async <T>(
  check: () => Promise<T | false | undefined> | T | false | undefined,
  timeoutMs = 8000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out: ${String(last ?? 'condition false')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const get = (port: number, path: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });

function managerWithConfigMapController(
  namespace: string,
  writes: string[],
  ignoreOwnUpdates = false,
) {
  const manager = new Manager({
    kubeConfig: server.kubeConfig,
    logger: quiet,
    metricsBindAddress: { port: 0, host: '127.0.0.1' },
    healthProbeBindAddress: { port: 0, host: '127.0.0.1' },
    namespace,
    onRequest: (verb, resource) => {
      if (verb !== 'get' && verb !== 'list') writes.push(`${verb} ${resource}`);
    },
  });
  manager
    .controller('stamper')
    .for(
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { predicates: ignoreOwnUpdates ? [(event) => event.type !== 'update'] : [] },
    )
    .owns({ apiVersion: 'v1', kind: 'Secret' })
    .complete(async (request) => {
      const cm = await manager.client
        .get<KubernetesObject>('v1', 'ConfigMap', request.name, request.namespace)
        .catch(() => undefined);
      if (cm === undefined || cm.metadata?.annotations?.stamped === 'yes') return;
      await manager.client.patch(cm, { metadata: { annotations: { stamped: 'yes' } } }, 'merge');
    });
  return manager;
}

describe('Manager', () => {
  it('syncs caches, runs controllers, serves readyz and metrics, and writes nothing in steady state', async () => {
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mgr-a' } });
    await admin.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'before', namespace: 'mgr-a' },
    });
    const writes: string[] = [];
    const manager = managerWithConfigMapController('mgr-a', writes);
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await eventually(
      async () =>
        (await admin.get<KubernetesObject>('v1', 'ConfigMap', 'before', 'mgr-a')).metadata
          ?.annotations?.stamped === 'yes',
    );
    await admin.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after', namespace: 'mgr-a' },
    });
    await eventually(
      async () =>
        (await admin.get<KubernetesObject>('v1', 'ConfigMap', 'after', 'mgr-a')).metadata
          ?.annotations?.stamped === 'yes',
    );
    const health = manager.health?.port ?? 0;
    expect((await get(health, '/readyz')).status).toBe(200);
    expect((await get(health, '/healthz')).body).toBe('ok');
    // Steady state: no more writes once everything is stamped.
    const settled = writes.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writes.length).toBe(settled);
    expect(writes.every((w) => w === 'patch configmaps')).toBe(true);
    const metrics = await manager.metrics.metrics();
    expect(metrics).toMatch(
      /controller_runtime_reconcile_total\{controller="stamper",result="success"\} [1-9]/,
    );
    expect(metrics).toContain('workqueue_adds_total{name="stamper"');
    stop.abort();
    await running;
  });

  it('reconciles the owner when an owned object changes', async () => {
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mgr-b' } });
    const owner = await admin.create<KubernetesObject>({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner', namespace: 'mgr-b', annotations: { stamped: 'yes' } },
    });
    // The ConfigMap's own updates are filtered out: only the owned Secret can wake it.
    const manager = managerWithConfigMapController('mgr-b', [], true);
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    await eventually(() => manager.isLeader());
    await admin.patch(owner, { metadata: { annotations: { stamped: null } } }, 'merge');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      (await admin.get<KubernetesObject>('v1', 'ConfigMap', 'owner', 'mgr-b')).metadata?.annotations
        ?.stamped,
    ).toBeUndefined();
    await admin.create(
      setControllerReference(owner, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'owned', namespace: 'mgr-b' },
      }),
    );
    await eventually(
      async () =>
        (await admin.get<KubernetesObject>('v1', 'ConfigMap', 'owner', 'mgr-b')).metadata
          ?.annotations?.stamped === 'yes',
    );
    stop.abort();
    await running;
  });

  it('fails to start with a clear error when a watched kind is not served', async () => {
    const manager = new Manager({
      kubeConfig: server.kubeConfig,
      logger: quiet,
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      cacheSyncTimeoutMs: 500,
    });
    manager
      .controller('ghost')
      .for({ apiVersion: 'example.com/v1', kind: 'Ghost' })
      .complete(() => undefined);
    await expect(manager.start(new AbortController().signal)).rejects.toThrow(/Ghost/);
  });

  it("exports its webhook server's metrics, and refuses to share the server with another manager", async () => {
    const webhookServer = new WebhookServer().register('/validate-v1-configmap', () =>
      admissionAllowed(),
    );
    const options = {
      kubeConfig: server.kubeConfig,
      logger: quiet,
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      webhookServer,
    } as const;
    const manager = new Manager(options);
    expect(await manager.metrics.metrics()).toContain(
      'controller_runtime_webhook_requests_in_flight{webhook="/validate-v1-configmap"} 0',
    );
    expect(() => new Manager(options)).toThrow(/give one WebhookServer to one Manager/);
    manager.transport.close();
  });

  it('refuses misuse with messages that say what to do', () => {
    expect(
      () => new Manager({ kubeConfig: server.kubeConfig, logger: quiet, leaderElection: true }),
    ).toThrow('leaderElection needs leaderElectionId');
    const manager = new Manager({
      kubeConfig: server.kubeConfig,
      logger: quiet,
      metricsBindAddress: false,
      healthProbeBindAddress: false,
    });
    manager
      .controller('one')
      .for({ apiVersion: 'v1', kind: 'ConfigMap' })
      .complete(() => undefined);
    expect(() =>
      manager
        .controller('one')
        .for({ apiVersion: 'v1', kind: 'Secret' })
        .complete(() => undefined),
    ).toThrow('a controller named one already exists');
    expect(() => manager.controller('x').complete(() => undefined)).toThrow(
      'call for(kind) before complete()',
    );
  });
});

describe('leader election', () => {
  it('lets one manager lead at a time, and hands over at once on graceful shutdown', async () => {
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mgr-le' } });
    const active: string[] = [];
    let overlap = false;
    const make = (id: string) => {
      const manager = new Manager({
        kubeConfig: server.kubeConfig,
        logger: quiet,
        metricsBindAddress: false,
        healthProbeBindAddress: false,
        namespace: 'mgr-le',
        leaderElection: true,
        leaderElectionId: 'stamper-lock',
        leaderElectionNamespace: 'mgr-le',
        leaderElectionIdentity: id,
        leaseDurationMs: 3000,
        renewDeadlineMs: 2000,
        retryPeriodMs: 200,
      });
      manager.add({
        start: async (signal) => {
          if (active.length > 0) overlap = true;
          active.push(id);
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          active.splice(active.indexOf(id), 1);
        },
      });
      return manager;
    };
    const first = make('first');
    const second = make('second');
    const stopFirst = new AbortController();
    const stopSecond = new AbortController();
    const runningFirst = first.start(stopFirst.signal);
    await eventually(() => first.isLeader());
    const runningSecond = second.start(stopSecond.signal);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(second.isLeader()).toBe(false);
    expect(active).toEqual(['first']);
    const handedOver = Date.now();
    stopFirst.abort();
    await runningFirst;
    await eventually(() => second.isLeader(), 5000);
    expect(Date.now() - handedOver).toBeLessThan(2000);
    const lease = await admin.get<
      KubernetesObject & { spec: { holderIdentity: string; leaseTransitions: number } }
    >('coordination.k8s.io/v1', 'Lease', 'stamper-lock', 'mgr-le');
    expect(lease.spec.holderIdentity).toBe('second');
    expect(lease.spec.leaseTransitions).toBeGreaterThanOrEqual(1);
    expect(overlap).toBe(false);
    stopSecond.abort();
    await runningSecond;
  });

  it('stops its runnables that need no election, and rejects, when it loses leadership', async () => {
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mgr-lost' } });
    const manager = new Manager({
      kubeConfig: server.kubeConfig,
      logger: quiet,
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      namespace: 'mgr-lost',
      leaderElection: true,
      leaderElectionId: 'lost-lock',
      leaderElectionNamespace: 'mgr-lost',
      leaderElectionIdentity: 'holder',
      leaseDurationMs: 3000,
      renewDeadlineMs: 2000,
      retryPeriodMs: 200,
    });
    let unelectedStopped = false;
    manager.add({
      needLeaderElection: false,
      start: async (signal) => {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
        unelectedStopped = true;
      },
    });
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    const outcome = running.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await eventually(() => manager.isLeader());
    // Another holder takes the Lease: the leader's renewals fail until its renew deadline.
    const lease = await admin.get<KubernetesObject & { spec: Record<string, unknown> }>(
      'coordination.k8s.io/v1',
      'Lease',
      'lost-lock',
      'mgr-lost',
    );
    await admin.update({
      ...lease,
      spec: { ...lease.spec, holderIdentity: 'thief', leaseDurationSeconds: 60 },
    });
    // Without stopping the runnable that needs no election, start never settled.
    await eventually(async () => (await Promise.race([outcome, 'pending'])) !== 'pending', 15_000);
    expect(await outcome).toMatch(/leader election lost/);
    expect(unelectedStopped).toBe(true);
    expect(stop.signal.aborted).toBe(false);
  });
});

describe('standby replicas', () => {
  const timing = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 200 };

  /** A manager campaigning for `lock`, whose controller records the ConfigMaps it reconciles. */
  function candidate(namespace: string, id: string, enableWarmup?: boolean) {
    const reconciled: string[] = [];
    const manager = new Manager({
      kubeConfig: server.kubeConfig,
      logger: quiet,
      metricsBindAddress: false,
      healthProbeBindAddress: { port: 0, host: '127.0.0.1' },
      namespace,
      leaderElection: true,
      leaderElectionId: 'standby-lock',
      leaderElectionNamespace: namespace,
      leaderElectionIdentity: id,
      ...(enableWarmup === undefined ? {} : { enableWarmup }),
      ...timing,
    });
    const controller = manager
      .controller('standby')
      .for({ apiVersion: 'v1', kind: 'ConfigMap' })
      .complete((request) => {
        reconciled.push(request.name);
      });
    const stop = new AbortController();
    return { manager, controller, reconciled, stop, running: () => manager.start(stop.signal) };
  }

  async function seed(namespace: string): Promise<Client> {
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    for (const name of ['a', 'b', 'c']) {
      await admin.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace } });
    }
    return admin;
  }

  it('keeps a warm standby (the default): caches synced and events queued, nothing reconciled until it leads, no list at takeover', async () => {
    const admin = await seed('mgr-warm');
    const first = candidate('mgr-warm', 'first');
    const second = candidate('mgr-warm', 'second');
    const runningFirst = first.running();
    await eventually(() => first.reconciled.length >= 3);
    const runningSecond = second.running();
    await eventually(() => second.manager.cache.list('v1', 'ConfigMap').length === 3);
    const [informer] = second.manager.cache.informers();
    expect(informer?.hasSynced()).toBe(true);
    await admin.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'while-standby', namespace: 'mgr-warm' },
    });
    await eventually(() => second.manager.cache.list('v1', 'ConfigMap').length === 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.manager.isLeader()).toBe(false);
    expect(second.reconciled).toEqual([]);
    // Its events are queued (the initial list at LowPriority, the new one at 0), waiting.
    expect(second.controller.queue.len()).toBe(4);
    const health = second.manager.health?.port ?? 0;
    expect((await get(health, '/readyz')).status).toBe(200);
    const listed = informer?.stats().listRequests;

    first.stop.abort();
    await runningFirst;
    await eventually(() => second.reconciled.length >= 4, 5000);
    expect([...second.reconciled].sort()).toEqual(['a', 'b', 'c', 'while-standby']);
    // The new leader reconciled from the cache it had: no LIST since it took over.
    expect(informer?.stats().listRequests).toBe(listed);
    second.stop.abort();
    await runningSecond;
  });

  it('keeps a cold standby with enableWarmup: false: no informer until it leads, ready meanwhile', async () => {
    await seed('mgr-cold');
    const first = candidate('mgr-cold', 'first');
    const second = candidate('mgr-cold', 'second', false);
    const runningFirst = first.running();
    await eventually(() => first.reconciled.length >= 3);
    const runningSecond = second.running();
    await eventually(
      async () => (await get(second.manager.health?.port ?? 0, '/readyz')).status === 200,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(second.manager.isLeader()).toBe(false);
    expect(second.manager.cache.informers()).toEqual([]);

    first.stop.abort();
    await runningFirst;
    await eventually(() => second.reconciled.length >= 3, 5000);
    expect([...second.reconciled].sort()).toEqual(['a', 'b', 'c']);
    expect(second.manager.cache.informers()).toHaveLength(1);
    second.stop.abort();
    await runningSecond;
  });
});
