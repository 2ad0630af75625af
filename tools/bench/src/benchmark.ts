import type { ShardingOptions } from '@ops/core/controller';
import type { BenchServer, ServerKind, ServerStartOptions } from './harness/bench-server.js';
import { type ObjectShape, objectShapes } from './harness/object-shapes.js';

/**
 * The sizes and durations of a run. `pnpm bench` uses {@link defaultBenchOptions}; the test
 * suite uses {@link tinyBenchOptions}; `--objects` and friends override single values.
 */
export interface BenchOptions {
  /** Pods listed and cached by the cold-sync, heap and API-server benchmarks. */
  objects: number;
  /** Repetitions of each measured variant (medians are reported); orders alternate. */
  repeats: number;
  /** How long the event-to-reconcile benchmark writes, in milliseconds. */
  latencyDurationMs: number;
  /** Writes per second of the event-to-reconcile benchmark. */
  latencyRate: number;
  /** Objects the steady-state benchmark's controller manages with createOrUpdate. */
  steadyObjects: number;
  /** The quiet period over which the steady-state benchmark counts writes, in milliseconds. */
  quietMs: number;
  /** Items through the bare workqueue per measurement. */
  queueItems: number;
  /** Requests per reconcile-throughput measurement (no-op reconciler). */
  reconcileItems: number;
  /** Requests per reconcile-throughput measurement with 1 ms of simulated I/O. */
  ioReconcileItems: number;
  /** Watchers of the fan-out measurement. */
  watchers: number;
  /** Changes fanned out to the watchers (one at a time). */
  fanoutChanges: number;
  /** Object shapes of the cold-sync matrix (`--shapes`). */
  shapes: ObjectShape[];
  /** Objects per namespace the cold-sync matrix syncs, ascending (`--sizes`). */
  shapeSizes: number[];
  /**
   * Objects of the same resource in another namespace: the matrix runs with none and, when
   * this is above 0, with these (`--other-objects`).
   */
  otherObjects: number;
  /** Fresh processes per contender and size in the matrix; medians are reported. */
  shapeRepeats: number;
  /** ConfigMaps the event-burst benchmark patches (`--burst-objects`). */
  burstObjects: number;
  /** Merge patches of one burst, spread evenly over those ConfigMaps (`--burst-patches`). */
  burstPatches: number;
  /** ConfigMaps the restart benchmark's operator restarts over (`--restart-objects`). */
  restartObjects: number;
  /** ConfigMaps the failover benchmark's standby caches (`--failover-objects`). */
  failoverObjects: number;
  /**
   * Runs of each runtime (before and after issue #31) in the operator benchmarks
   * (`applications`, `balancers`, `myjobs`; `--operator-repeats`), alternating which goes
   * first; their objects are `steadyObjects`.
   */
  operatorRepeats: number;
  /**
   * Objects of the sharded-scale-out benchmark, one run of 1, 3 and 5 replicas per size
   * (`--shard-sizes`); its steady load lasts `latencyDurationMs`.
   */
  shardSizes: number[];
  /**
   * What the sharded-scale-out benchmark hashes to pick a replica (`--shard-by`), each a run
   * of its own: `name` (shard labels), `namespace` (kube-apiserver's server-side shard
   * selectors where it has them, else labels keyed by namespace).
   */
  shardBy: ShardBy[];
  /**
   * Replica counts of each sharded-scale-out run, ascending (`--shard-replicas`): scaling is
   * judged from the first to the last, heap with 3 replicas when 3 is among them.
   */
  shardReplicas: number[];
}

/** What a sharded controller hashes: core's `withOptions({ sharding: { by } })`. */
export type ShardBy = NonNullable<ShardingOptions['by']>;

/** Every {@link ShardBy}, in the order runs take them. */
export const shardByValues: readonly ShardBy[] = ['name', 'namespace'];

/** The full run of `pnpm bench` (about 3 minutes on a 2-core machine). */
export const defaultBenchOptions: BenchOptions = {
  objects: 10_000,
  repeats: 5,
  latencyDurationMs: 10_000,
  latencyRate: 100,
  steadyObjects: 1_000,
  quietMs: 5_000,
  queueItems: 200_000,
  reconcileItems: 50_000,
  ioReconcileItems: 2_000,
  watchers: 50,
  fanoutChanges: 20,
  shapes: [...objectShapes],
  shapeSizes: [10_000, 50_000],
  otherObjects: 50_000,
  shapeRepeats: 3,
  burstObjects: 1_000,
  burstPatches: 10_000,
  restartObjects: 50_000,
  failoverObjects: 10_000,
  operatorRepeats: 2,
  shardSizes: [10_000, 50_000],
  shardBy: [...shardByValues],
  shardReplicas: [1, 3, 5],
};

/** A run of every benchmark in a few seconds, for tests (`--tiny`). */
export const tinyBenchOptions: BenchOptions = {
  objects: 200,
  repeats: 2,
  latencyDurationMs: 1_000,
  latencyRate: 50,
  steadyObjects: 50,
  quietMs: 1_000,
  queueItems: 5_000,
  reconcileItems: 1_000,
  ioReconcileItems: 100,
  watchers: 5,
  fanoutChanges: 3,
  shapes: [...objectShapes],
  shapeSizes: [100, 200],
  otherObjects: 200,
  shapeRepeats: 1,
  burstObjects: 50,
  burstPatches: 300,
  restartObjects: 200,
  failoverObjects: 100,
  operatorRepeats: 1,
  shardSizes: [40],
  shardBy: [...shardByValues],
  shardReplicas: [1, 2],
};

/** One reported figure. */
export interface Metric {
  /** What it is, e.g. `ops Informer / floor`. */
  name: string;
  value: number;
  /** `ms`, `×`, `B/object`, `ops/s`, `MB/s`, `writes` ... */
  unit: string;
}

/** A target the issue sets for a benchmark, and whether this run meets it. */
export interface TargetCheck {
  /** The target in words, e.g. `ops within 1.5× of the floor`. */
  target: string;
  /** The figure compared, as printed. */
  measured: string;
  met: boolean;
}

/** One bar chart of the SVG report. */
export interface ChartPanel {
  title: string;
  unit: string;
  bars: Array<{ label: string; value: number }>;
}

/** What a benchmark module returns. */
export interface BenchmarkResult {
  /** The module's id. */
  id: string;
  title: string;
  metrics: Metric[];
  targets: TargetCheck[];
  /** Panels for the SVG chart. */
  charts: ChartPanel[];
  /** Caveats and context worth printing with the figures. */
  notes: string[];
  /** The raw samples and anything else worth keeping in the JSON results. */
  samples: Record<string, unknown>;
}

/** What a benchmark module is given. */
export interface BenchContext {
  options: BenchOptions;
  /** The kind of server {@link startServer} starts (`--server`). */
  serverKind: ServerKind;
  /** That server as the report names it, with its version (for notes). */
  serverName: string;
  /**
   * Starts a fresh API server of the run's kind in processes of its own (each benchmark
   * starts its own, so none sees another's objects or history); the runner stops every
   * server a benchmark left running. `cluster` (a simulated cluster that runs Deployments)
   * only the local server has; `featureGates` only kube-apiserver reads.
   */
  startServer(options?: ServerStartOptions): Promise<BenchServer>;
  /** Progress messages (to stderr in the CLI; dropped in tests). */
  log(message: string): void;
}

/**
 * A benchmark: the extension point of this package. Add a module under `src/benchmarks/`,
 * list it in `src/benchmarks/index.ts`, and the runner, `--only`, the table, the JSON and
 * the chart pick it up.
 */
export interface BenchmarkModule {
  /** Short, stable, kebab-case: used by `--only` and as the key in the JSON results. */
  id: string;
  title: string;
  /** One sentence: what is measured. */
  description: string;
  /**
   * The kinds of server this benchmark cannot run on, each with the reason, which the run
   * prints and the report lists instead of its figures (e.g. it needs the local server's
   * simulated cluster).
   */
  unsupportedOn?: Partial<Record<ServerKind, string>>;
  run(context: BenchContext): Promise<BenchmarkResult>;
}
