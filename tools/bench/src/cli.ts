#!/usr/bin/env node
/**
 * `pnpm bench`: runs the benchmarks, prints the results as Markdown tables and writes
 * `bench-results/<timestamp>.json`, `latest.json`, `latest.svg` and `latest.md`.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchOptions, defaultBenchOptions, tinyBenchOptions } from './benchmark.js';
import { benchmarks, selectBenchmarks } from './benchmarks/index.js';
import { type ServerKind, serverKinds } from './harness/bench-server.js';
import { parseShapes } from './harness/object-shapes.js';
import { parseShardBy } from './harness/parse-shard-by.js';
import { parseSizes } from './harness/parse-sizes.js';
import { localServerSource, realServerSource, type ServerSource } from './harness/server-source.js';
import { markdownNotes, markdownTables } from './report/table.js';
import { writeResults } from './report/write-results.js';
import { runBenchmarks } from './runner.js';

const usage = `Usage: pnpm bench [options]

Runs the benchmarks of @ops/core against peer libraries on an API server.

Options:
  --server <kind>       local (default): @ops/apiserver in a child process, nothing but Node.js;
                        real: etcd + kube-apiserver from KUBEBUILDER_ASSETS, else built with Go
                        into the user's cache (or reused) as 'pnpm control-plane build' does
  --only <ids>          comma-separated benchmark ids (default: all); see --list
  --list                list the benchmarks and exit
  --tiny                tiny sizes (seconds, for a smoke run)
  --objects <n>         Pods for cold sync, heap and API server (default ${defaultBenchOptions.objects})
  --repeats <n>         repetitions per variant; medians are reported (default ${defaultBenchOptions.repeats})
  --duration-ms <n>     how long the latency benchmark writes (default ${defaultBenchOptions.latencyDurationMs})
  --rate <n>            writes per second of the latency benchmark (default ${defaultBenchOptions.latencyRate})
  --steady-objects <n>  objects of the zero-writes benchmark (default ${defaultBenchOptions.steadyObjects})
  --quiet-ms <n>        quiet period of the zero-writes benchmark (default ${defaultBenchOptions.quietMs})
  --shapes <list>       object shapes of the 'shapes' matrix: pods,configmaps,managed-fields
                        (default all)
  --sizes <list>        objects per namespace of the matrix, e.g. 10000,50000,100000
                        (default ${defaultBenchOptions.shapeSizes.join(',')})
  --other-objects <n>   also run the matrix with n objects of the same resource in another
                        namespace; 0 for none (default ${defaultBenchOptions.otherObjects})
  --shape-repeats <n>   fresh processes per library and size in the matrix (default ${defaultBenchOptions.shapeRepeats})
  --burst-objects <n>   ConfigMaps of the event-burst benchmark (default ${defaultBenchOptions.burstObjects})
  --burst-patches <n>   merge patches of one burst (default ${defaultBenchOptions.burstPatches})
  --restart-objects <n> ConfigMaps the restart-priority benchmark restarts over (default ${defaultBenchOptions.restartObjects})
  --failover-objects <n> ConfigMaps the failover-standby benchmark's standby caches (default ${defaultBenchOptions.failoverObjects})
  --operator-repeats <n> runs of each runtime, before and after issue #31, in the operator
                        benchmarks (applications, balancers, myjobs; default ${defaultBenchOptions.operatorRepeats})
  --shard-sizes <list>  objects of the sharded-scale-out benchmark, each run over every count
                        of --shard-replicas (default ${defaultBenchOptions.shardSizes.join(',')})
  --shard-replicas <list> replica counts of each of those runs (default ${defaultBenchOptions.shardReplicas.join(',')})
  --shard-by <list>     what the sharded-scale-out benchmark hashes, a run each: name (shard
                        labels), namespace (kube-apiserver's sharded watches where it has
                        them, 1.36+ with ShardedListAndWatch, else labels by namespace)
                        (default ${defaultBenchOptions.shardBy.join(',')})
  --out <dir>           where results go (default ./bench-results)
  -h, --help            show this help
`;

const numericFlags = {
  objects: 'objects',
  repeats: 'repeats',
  'duration-ms': 'latencyDurationMs',
  rate: 'latencyRate',
  'steady-objects': 'steadyObjects',
  'quiet-ms': 'quietMs',
  'shape-repeats': 'shapeRepeats',
  'burst-objects': 'burstObjects',
  'burst-patches': 'burstPatches',
  'restart-objects': 'restartObjects',
  'failover-objects': 'failoverObjects',
  'operator-repeats': 'operatorRepeats',
} as const satisfies Record<string, keyof BenchOptions>;

async function main(): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    console.error(`bench: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (values.list) {
    for (const module of benchmarks) console.log(`${module.id.padEnd(22)} ${module.description}`);
    return 0;
  }
  const options: BenchOptions = { ...(values.tiny ? tinyBenchOptions : defaultBenchOptions) };
  for (const [flag, key] of Object.entries(numericFlags)) {
    const raw = values[flag as keyof typeof numericFlags];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) {
      console.error(`bench: --${flag} must be a whole number >= 1, got "${raw}"`);
      return 2;
    }
    options[key] = value;
  }
  try {
    if (values.shapes !== undefined) options.shapes = parseShapes(values.shapes);
    if (values.sizes !== undefined) options.shapeSizes = parseSizes(values.sizes);
    if (values['shard-sizes'] !== undefined)
      options.shardSizes = parseSizes(values['shard-sizes'], '--shard-sizes');
    if (values['shard-replicas'] !== undefined)
      options.shardReplicas = parseSizes(values['shard-replicas'], '--shard-replicas');
    if (values['shard-by'] !== undefined) options.shardBy = parseShardBy(values['shard-by']);
    if (values['other-objects'] !== undefined) {
      const others = Number(values['other-objects']);
      if (!Number.isInteger(others) || others < 0)
        throw new Error(
          `--other-objects must be a whole number >= 0, got "${values['other-objects']}"`,
        );
      options.otherObjects = others;
    }
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }
  let modules: ReturnType<typeof selectBenchmarks>;
  try {
    modules = selectBenchmarks(
      (values.only ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    );
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }
  const kind = (values.server ?? 'local') as ServerKind;
  if (!serverKinds.includes(kind)) {
    console.error(
      `bench: --server must be one of ${serverKinds.join(', ')}, got "${values.server}"`,
    );
    return 2;
  }
  let source: ServerSource;
  try {
    source =
      kind === 'real'
        ? await realServerSource({ log: (line) => console.error(`bench: control-plane: ${line}`) })
        : localServerSource();
  } catch (error) {
    // Binaries absent and not buildable (no Go: the message says what to install) or broken.
    if (kind !== 'real') throw error;
    console.error(`bench: cannot use the real server: ${(error as Error).message}`);
    return 1;
  }
  console.error(`bench: server: ${source.name}`);
  if (typeof (globalThis as { gc?: unknown }).gc !== 'function') {
    console.error(
      'bench: note: run node with --expose-gc (pnpm bench does) for exact heap figures',
    );
  }
  const report = await runBenchmarks(modules, options, (message) => console.error(message), source);
  console.log(`\n${markdownTables(report)}\n\nNotes:\n\n${markdownNotes(report)}\n`);
  const files = await writeResults(report, resolve(values.out ?? 'bench-results'));
  console.log(
    `Results: ${files.json}\nChart:   ${files.latestSvg}\nTables:  ${files.committedMarkdown} (commit it with a change)`,
  );
  const unmet = report.results.flatMap((result) => result.targets).filter((check) => !check.met);
  if (unmet.length > 0) console.log(`${unmet.length} target(s) not met (see the table above).`);
  return 0;
}

function parse() {
  return parseArgs({
    options: {
      server: { type: 'string' },
      only: { type: 'string' },
      list: { type: 'boolean' },
      tiny: { type: 'boolean' },
      objects: { type: 'string' },
      repeats: { type: 'string' },
      'duration-ms': { type: 'string' },
      rate: { type: 'string' },
      'steady-objects': { type: 'string' },
      'quiet-ms': { type: 'string' },
      shapes: { type: 'string' },
      sizes: { type: 'string' },
      'other-objects': { type: 'string' },
      'shape-repeats': { type: 'string' },
      'burst-objects': { type: 'string' },
      'burst-patches': { type: 'string' },
      'restart-objects': { type: 'string' },
      'failover-objects': { type: 'string' },
      'operator-repeats': { type: 'string' },
      'shard-sizes': { type: 'string' },
      'shard-by': { type: 'string' },
      'shard-replicas': { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`bench: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exitCode = 1;
  },
);
