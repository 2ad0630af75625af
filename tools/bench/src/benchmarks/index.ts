import type { BenchmarkModule } from '../benchmark.js';
import { apiServerBenchmark } from './apiserver.js';
import { applicationsReadyBenchmark } from './applications-ready.js';
import { balancersReadyBenchmark } from './balancers-ready.js';
import { coldSyncBenchmark } from './cold-sync.js';
import { eventBurstBenchmark } from './event-burst.js';
import { eventLatencyBenchmark } from './event-latency.js';
import { failoverStandbyBenchmark } from './failover-standby.js';
import { heapPerObjectBenchmark } from './heap-per-object.js';
import { metadataHeapBenchmark } from './metadata-heap.js';
import { myJobsCompletedBenchmark } from './myjobs-completed.js';
import { restartPriorityBenchmark } from './restart-priority.js';
import { shardedScaleOutBenchmark } from './sharded-scale-out.js';
import { sidecarAdmissionBenchmark } from './sidecar-admission.js';
import { steadyWritesBenchmark } from './steady-writes.js';
import { syncMatrixBenchmark } from './sync-matrix.js';
import { throughputBenchmark } from './throughput.js';
import { watchListBenchmark } from './watch-list.js';

/**
 * Every benchmark, in the order `pnpm bench` runs them: the extension point of this
 * package. To add one, write a {@link BenchmarkModule} in this directory (with a test beside
 * it that runs it with `tinyBenchOptions`) and append it here; `--only`, the table, the
 * JSON results and the chart pick it up.
 */
export const benchmarks: readonly BenchmarkModule[] = [
  coldSyncBenchmark,
  heapPerObjectBenchmark,
  metadataHeapBenchmark,
  syncMatrixBenchmark,
  watchListBenchmark,
  eventLatencyBenchmark,
  restartPriorityBenchmark,
  failoverStandbyBenchmark,
  eventBurstBenchmark,
  throughputBenchmark,
  steadyWritesBenchmark,
  apiServerBenchmark,
  applicationsReadyBenchmark,
  myJobsCompletedBenchmark,
  sidecarAdmissionBenchmark,
  balancersReadyBenchmark,
  shardedScaleOutBenchmark,
];

/**
 * The benchmarks named in `ids` (all when empty), in registry order.
 *
 * @throws {Error} naming the unknown ids and the known ones.
 */
export function selectBenchmarks(ids: readonly string[]): BenchmarkModule[] {
  if (ids.length === 0) return [...benchmarks];
  const unknown = ids.filter((id) => !benchmarks.some((module) => module.id === id));
  if (unknown.length > 0) {
    throw new Error(
      `unknown benchmark ${unknown.join(', ')}; known: ${benchmarks.map((m) => m.id).join(', ')}`,
    );
  }
  return benchmarks.filter((module) => ids.includes(module.id));
}
