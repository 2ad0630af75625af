import { Manager } from '@ops/core';
import { KubeTransport } from '@ops/core/client';
import { LeaderElector } from '@ops/core/manager';
import { pino } from 'pino';
import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import type { BenchServer } from '../harness/bench-server.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { RawHttp } from '../harness/raw-http.js';
import { median, percentile, ratio } from '../harness/stats.js';
import { sleep, waitUntil } from '../harness/wait.js';

const namespace = 'failover';
/** Lease timing of both candidates: short, so that a run waits seconds, not a quarter minute. */
const timing = { leaseDurationMs: 2_000, renewDeadlineMs: 1_500, retryPeriodMs: 200 };
/** Objects created right after the leader dies, while its Lease runs out. */
const changedPerRun = 5;
const workers = 4;
const reconcileIoMs = 1;
/** The goal of issue #31: p99 from the Lease's expiry to a changed object's first reconcile. */
const goalMs = 2_000;

type Variant = 'warm' | 'cold';
const variantNames: Record<Variant, string> = {
  warm: 'warm standby (default)',
  cold: 'cold standby (enableWarmup: false)',
};

interface FailoverRun {
  variant: Variant;
  /** Each changed object's first reconcile, in ms after the dead leader's Lease expired. */
  afterExpiryMs: number[];
  /**
   * When the new leader started its workers (for a cold standby, after its caches synced),
   * in ms after the Lease expired: taken by an elected runnable, which starts with them.
   */
  ledAfterExpiryMs: number;
}

/**
 * Issue #31's failover benchmark: a leader holding the Lease dies without releasing it (a
 * `LeaderElector` stopped with `releaseOnCancel: false`) while a standby Manager over N
 * ConfigMaps waits; objects are created as it dies. Measured: from the Lease's expiry (its
 * last `renewTime` plus its duration) to each new object's first reconcile by the new leader,
 * warm standby (caches synced while waiting) against cold (lists once it leads), alternating.
 */
export const failoverStandbyBenchmark: BenchmarkModule = {
  id: 'failover-standby',
  title: 'Leader failover',
  description:
    'A leader dies over N ConfigMaps: Lease expiry → first reconcile of objects changed meanwhile, warm vs cold standby (p99 ≤ 2 s).',
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.failoverObjects;
    const server = await startServer();
    await server.seedConfigMaps(namespace, 'existing', objects);
    const runs: FailoverRun[] = [];
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      const order: Variant[] = repeat % 2 === 0 ? ['warm', 'cold'] : ['cold', 'warm'];
      for (const variant of order) {
        log(`failover ${repeat + 1}/${options.repeats} over ${objects} ConfigMaps: ${variant}`);
        runs.push(await failoverOnce(server, objects, variant, `r${repeat}-${variant}`));
      }
    }
    const all = (variant: Variant) =>
      runs.filter((run) => run.variant === variant).flatMap((run) => run.afterExpiryMs);
    const led = (variant: Variant) =>
      median(runs.filter((run) => run.variant === variant).map((run) => run.ledAfterExpiryMs));
    const warmP99 = percentile(all('warm'), 99);
    const coldP99 = percentile(all('cold'), 99);
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: `${variantNames.warm}: p50`, value: percentile(all('warm'), 50), unit: 'ms' },
        { name: `${variantNames.warm}: p99`, value: warmP99, unit: 'ms' },
        { name: `${variantNames.cold}: p50`, value: percentile(all('cold'), 50), unit: 'ms' },
        { name: `${variantNames.cold}: p99`, value: coldP99, unit: 'ms' },
        { name: 'cold / warm, p99', value: ratio(coldP99, warmP99), unit: '×' },
        { name: 'Lease expiry → workers running, warm (median)', value: led('warm'), unit: 'ms' },
        { name: 'Lease expiry → workers running, cold (median)', value: led('cold'), unit: 'ms' },
      ],
      targets: [
        {
          target: `p99 from the dead leader's Lease expiry to a changed object's first reconcile, ${formatNumber(objects, 0)} cached objects ≤ 2 s (warm standby)`,
          measured: `${formatNumber(warmP99)} ms (cold: ${formatNumber(coldP99)} ms, ${formatRatio(ratio(coldP99, warmP99))})`,
          met: warmP99 <= goalMs,
        },
      ],
      charts: [
        {
          title: `Lease expiry → first reconcile after a failover over ${formatNumber(objects, 0)} objects (ms; lower is better)`,
          unit: 'ms',
          bars: [
            { label: 'warm p50', value: percentile(all('warm'), 50) },
            { label: 'warm p99', value: warmP99 },
            { label: 'cold p50', value: percentile(all('cold'), 50) },
            { label: 'cold p99', value: coldP99 },
          ],
        },
      ],
      notes: [
        `${options.repeats} failovers per standby kind, alternating which goes first, each on a Lease of its own (duration ${timing.leaseDurationMs} ms, retry period ${timing.retryPeriodMs} ms). The standby is a Manager over ${formatNumber(objects, 0)} ConfigMaps with one controller of ${workers} workers (a cache read and ${reconcileIoMs} ms of simulated I/O per reconcile), in the bench process; the dying leader is a LeaderElector stopped without releasing its Lease. ${changedPerRun} ConfigMaps are created right after it dies; a sample runs from the Lease's expiry (its last renewTime plus its duration: the standby, which saw that renewal up to one retry period later, waits at least that long) to the start of one's first reconcile (${changedPerRun * options.repeats} samples per kind).`,
      ],
      samples: { runs },
    };
  },
};

async function failoverOnce(
  server: BenchServer,
  objects: number,
  variant: Variant,
  tag: string,
): Promise<FailoverRun> {
  const leaseName = `failover-${tag}`;
  const changed = Array.from({ length: changedPerRun }, (_, i) => `changed-${tag}-${i}`);
  const firstReconcileAt = new Map<string, number>();
  const transport = new KubeTransport(server.kubeConfig());
  const dying = new AbortController();
  let leaderLeads = false;
  const dyingLeader = new LeaderElector({
    transport,
    namespace,
    name: leaseName,
    identity: 'leader-that-dies',
    ...timing,
    releaseOnCancel: false,
    logger: pino({ level: 'silent' }),
  }).run(dying.signal, {
    onStartedLeading: () => {
      leaderLeads = true;
    },
  });
  await waitUntil(() => leaderLeads, 'the leader that dies to lead', 30_000);

  const manager = new Manager({
    kubeConfig: server.kubeConfig(),
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace,
    leaderElection: true,
    leaderElectionId: leaseName,
    leaderElectionNamespace: namespace,
    leaderElectionIdentity: `standby-${tag}`,
    enableWarmup: variant === 'warm',
    gracefulShutdownTimeoutMs: 5_000,
    ...timing,
  });
  manager
    .controller('failover')
    .for({ apiVersion: 'v1', kind: 'ConfigMap' })
    .withOptions({ maxConcurrentReconciles: workers })
    .complete(async ({ name }) => {
      if (changed.includes(name) && !firstReconcileAt.has(name)) {
        firstReconcileAt.set(name, Date.now());
      }
      await manager.client.get('v1', 'ConfigMap', name, namespace);
      await sleep(reconcileIoMs);
    });
  // When the elected manager starts its controllers: an elected runnable starts in the same
  // synchronous step, before any reconcile can run (timed exactly, not polled).
  let ledAt = 0;
  manager.add({
    start: async () => {
      ledAt ||= Date.now();
    },
  });
  const stopStandby = new AbortController();
  let failure: unknown;
  const standby = manager.start(stopStandby.signal).catch((error: unknown) => {
    failure = error;
  });
  const http = new RawHttp(server);
  try {
    // Standing by: a warm one with its cache full, a cold one campaigning (a few retries).
    if (variant === 'warm') {
      await waitUntil(
        () => {
          if (failure !== undefined) throw failure;
          const cached = manager.cache.objectCounts().reduce((sum, entry) => sum + entry.count, 0);
          return cached >= objects;
        },
        'the warm standby to sync its cache',
        300_000,
      );
    } else {
      await sleep(5 * timing.retryPeriodMs);
    }
    if (manager.isLeader()) throw new Error('the standby led before the leader died');
    dying.abort();
    await dyingLeader;
    for (const name of changed) {
      await http.send('POST', `/api/v1/namespaces/${namespace}/configmaps`, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace },
        data: { created: 'while the Lease ran out' },
      });
    }
    const lease = JSON.parse(
      (
        await http.get(`/apis/coordination.k8s.io/v1/namespaces/${namespace}/leases/${leaseName}`)
      ).toString(),
    ) as { spec: { renewTime: string; leaseDurationSeconds: number } };
    const expiresAt =
      Date.parse(lease.spec.renewTime.replace(/(\.\d{3})\d*Z$/, '$1Z')) +
      lease.spec.leaseDurationSeconds * 1000;
    await waitUntil(
      () => {
        if (failure !== undefined) throw failure;
        return firstReconcileAt.size === changed.length;
      },
      `the ${variant} standby's first reconcile of every changed object`,
      300_000,
      2,
    );
    return {
      variant,
      afterExpiryMs: changed.map((name) => (firstReconcileAt.get(name) as number) - expiresAt),
      ledAfterExpiryMs: ledAt - expiresAt,
    };
  } finally {
    http.close();
    dying.abort();
    stopStandby.abort();
    await standby;
    transport.close();
  }
}
