import type {
  BenchContext,
  BenchmarkModule,
  BenchmarkResult,
  Metric,
  TargetCheck,
} from '../benchmark.js';
import {
  type BurstWatcher,
  runBurstWriter,
  startBurstWatcher,
} from '../harness/burst-processes.js';
import { type BurstContender, burstContenders } from '../harness/burst-protocol.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { addSample, median, ratio } from '../harness/stats.js';

const namespace = 'burst';
/** The name prefix of the Helm-shaped ConfigMaps `seedShape('configmaps')` creates. */
const prefix = 'storefront-config';
/** Patches the writer keeps in flight: enough to keep one server busy, not a queue. */
const writerConcurrency = 16;
/** How long a library may take after the writer's last response before its misses count. */
const graceMs = 5_000;

const labels: Record<BurstContender, string> = {
  bare: 'floor: bare watch + JSON.parse into a Map',
  ops: '@ops/core Informer',
  'client-node': 'client-node informer',
  fluent: 'fluent Watch',
};

/** One library's figures of one burst. */
interface BurstSample {
  /** CPU time of its process from the first write to the last update, in ms. */
  cpuMs: number;
  /** From the writer's last response to the library's last update, in ms (negative: before). */
  lastDelayMs: number;
  /** Patches whose update it never received. */
  missed: number;
  /** Updates it received more than once (the same patch twice). */
  repeated: number;
  /** Patches per second the writer achieved. */
  writesPerSecond: number;
}

/**
 * Event burst: a writer in a process of its own merge-patches N Helm-shaped ConfigMaps as
 * fast as the server answers (16 patches in flight; patch `seq` sets an annotation to a
 * number unique to it on ConfigMap `seq % objects`), while one library, synced in a fresh
 * process of its own, counts the updates it receives. Per library and burst: whether it saw
 * an update for every patch, when it saw the last one relative to the writer's last response
 * (both read on the machine's monotonic clock, shared by the processes), and its process's
 * CPU time from the first write to the last update. The libraries take turns, in
 * alternating order, against the same server; medians over `repeats` bursts are reported.
 */
export const eventBurstBenchmark: BenchmarkModule = {
  id: 'event-burst',
  title: 'Event burst',
  description:
    'N merge patches from a writer process as fast as the server takes them: updates seen, the last one’s delay after the last write, and each library’s CPU for the burst.',
  async run({ options, startServer, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.burstObjects;
    const patches = options.burstPatches;
    if (patches < objects)
      throw new Error(
        `--burst-patches (${patches}) must be at least --burst-objects (${objects}): every ConfigMap is patched at least once`,
      );
    const server = await startServer();
    await server.seedShape('configmaps', namespace, 0, objects);
    const cpuMs: Record<string, number[]> = {};
    const delayMs: Record<string, number[]> = {};
    const runs: Record<string, BurstSample[]> = {};
    const failed = new Map<BurstContender, string>();
    let burst = 0;
    for (let round = 0; round < options.repeats; round++) {
      const order = round % 2 === 0 ? burstContenders : [...burstContenders].reverse();
      for (const contender of order) {
        if (failed.has(contender)) continue;
        // Each burst sets values no earlier burst set, so every patch changes its object.
        burst++;
        const base = burst * patches;
        await server.collectGarbage();
        let watcher: BurstWatcher | undefined;
        try {
          watcher = await startBurstWatcher({
            contender,
            url: server.url,
            kubeconfigPath: server.kubeconfigPath,
            namespace,
            objects,
            patches,
            base,
          });
          watcher.go();
          const written = await runBurstWriter({
            url: server.url,
            kubeconfigPath: server.kubeconfigPath,
            namespace,
            prefix,
            objects,
            patches,
            base,
            concurrency: writerConcurrency,
          });
          const running = watcher;
          const timer = setTimeout(() => running.finish(), graceMs);
          const counts = await running.counts().finally(() => clearTimeout(timer));
          const sample: BurstSample = {
            cpuMs: counts.cpuMs,
            lastDelayMs: counts.lastUpdateAt - written.lastRespondedAt,
            missed: patches - counts.distinct,
            repeated: counts.updates - counts.distinct,
            writesPerSecond: (patches * 1000) / (written.lastRespondedAt - written.firstSentAt),
          };
          runs[contender] = [...(runs[contender] ?? []), sample];
          addSample(cpuMs, contender, sample.cpuMs);
          addSample(delayMs, contender, sample.lastDelayMs);
          log(
            `${labels[contender]}: ${patches - sample.missed}/${patches} updates, last ${formatNumber(sample.lastDelayMs)} ms after the last write, CPU ${formatNumber(sample.cpuMs)} ms (writer ${formatNumber(sample.writesPerSecond, 0)}/s)`,
          );
        } catch (error) {
          watcher?.kill();
          failed.set(contender, (error as Error).message.split('\n')[0] ?? 'failed');
          log(`${labels[contender]} failed: ${(error as Error).message}`);
        }
      }
      log(`round ${round + 1}/${options.repeats} done`);
    }

    const cpu = (id: BurstContender) => median(cpuMs[id] ?? []);
    const delay = (id: BurstContender) => median(delayMs[id] ?? []);
    const missedMost = (id: BurstContender) =>
      Math.max(...(runs[id] ?? []).map((sample) => sample.missed));
    const metrics: Metric[] = [];
    for (const contender of burstContenders) {
      if (runs[contender] === undefined) continue;
      const label = labels[contender];
      metrics.push(
        { name: `${label}: CPU for the burst`, value: cpu(contender), unit: 'ms' },
        { name: `${label}: last update after the last write`, value: delay(contender), unit: 'ms' },
        {
          name: `${label}: updates missed (most in a burst)`,
          value: missedMost(contender),
          unit: 'updates',
        },
      );
    }
    const cpuToClientNode = ratio(cpu('ops'), cpu('client-node'));
    const cpuToFluent = ratio(cpu('ops'), cpu('fluent'));
    metrics.push(
      { name: 'CPU ops / floor', value: ratio(cpu('ops'), cpu('bare')), unit: '×' },
      { name: 'CPU client-node / floor', value: ratio(cpu('client-node'), cpu('bare')), unit: '×' },
      { name: 'CPU ops / client-node', value: cpuToClientNode, unit: '×' },
      { name: 'CPU ops / fluent', value: cpuToFluent, unit: '×' },
      {
        name: 'writer patches per second (median)',
        value: median(
          Object.values(runs).flatMap((samples) => samples.map((s) => s.writesPerSecond)),
        ),
        unit: '/s',
      },
    );
    const opsRuns = runs.ops ?? [];
    const opsMissed = opsRuns.length === 0 ? Number.NaN : missedMost('ops');
    const opsDelay = delay('ops');
    const targets: TargetCheck[] = [
      {
        target: 'ops sees every update of every burst',
        measured: `${formatNumber(opsMissed, 0)} missed at most, of ${formatNumber(patches, 0)}`,
        met: opsMissed === 0,
      },
      {
        target: 'ops sees the last update within 100 ms of the last write (median)',
        measured: `${formatNumber(opsDelay)} ms`,
        met: opsDelay <= 100,
      },
      {
        target: 'ops CPU for the burst ≤ 0.8× client-node',
        measured: formatRatio(cpuToClientNode),
        met: cpuToClientNode <= 0.8,
      },
    ];
    for (const [contender, error] of failed)
      targets.push({ target: `${labels[contender]} measured`, measured: error, met: false });
    return {
      id: this.id,
      title: this.title,
      metrics,
      targets,
      charts: [
        {
          title: `CPU for a burst of ${formatNumber(patches, 0)} updates (ms; lower is better)`,
          unit: 'ms',
          bars: burstContenders
            .filter((contender) => runs[contender] !== undefined)
            .map((contender) => ({ label: labels[contender], value: cpu(contender) })),
        },
      ],
      notes: [
        `${formatNumber(patches, 0)} merge patches to ${formatNumber(objects, 0)} Helm-shaped ConfigMaps (${writerConcurrency} in flight) from a writer process per burst; each library (and the floor: a bare node:http WATCH whose lines are JSON.parse'd into a Map by name) synced first in a fresh process of its own and counted the updates carrying this burst's numbers. The delay runs from the writer's last response to the library's last update, both on the machine's monotonic clock (negative when the event overtook the response). CPU is the library process's user + system time from just before the writer started to its last update. Medians of ${options.repeats} bursts per library, in alternating order.`,
      ],
      samples: { runs, failed: Object.fromEntries(failed) },
    };
  },
};
