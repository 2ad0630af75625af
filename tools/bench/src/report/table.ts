import { mergeSeedings } from '../harness/bench-server.js';
import { formatNumber } from '../harness/format.js';
import type { BenchReport } from '../runner.js';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The results as two Markdown tables under a header naming the Node.js, the machine, the
 * libraries compared, the API server and how long seeding it took: every figure
 * (benchmark, measure, value; a skipped benchmark gets one row with the reason), then every
 * target with its measured figure and whether it is met.
 */
export function markdownTables(report: BenchReport): string {
  const rows = ['| Benchmark | Measure | Result |', '| --- | --- | ---: |'];
  for (const result of report.results) {
    for (const metric of result.metrics) {
      const value =
        metric.unit === '×'
          ? `${formatNumber(metric.value, 2)}×`
          : `${formatNumber(metric.value, Number.isInteger(metric.value) ? 0 : undefined)} ${metric.unit}`;
      rows.push(`| ${escapeCell(result.title)} | ${escapeCell(metric.name)} | ${value} |`);
    }
  }
  for (const skipped of report.skipped) {
    rows.push(
      `| ${escapeCell(skipped.title)} | not run on this server: ${escapeCell(skipped.reason)} | — |`,
    );
  }
  const targets = ['| Benchmark | Target | Measured | Met |', '| --- | --- | --- | :---: |'];
  for (const result of report.results) {
    for (const check of result.targets) {
      targets.push(
        `| ${escapeCell(result.title)} | ${escapeCell(check.target)} | ${escapeCell(check.measured)} | ${check.met ? 'yes' : '**no**'} |`,
      );
    }
  }
  const environment = report.environment;
  const libraries = Object.entries(environment.libraries)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ');
  const header = [
    `Node ${environment.node}, ${environment.cpus} × ${environment.cpuModel}, ${environment.platform}; ${report.startedAt}.`,
    `Libraries: ${libraries}.`,
    `Server: ${report.server.name}.`,
    optionsLine(report),
    seedingLine(report),
  ].join('\n\n');
  return [header, '', rows.join('\n'), '', targets.join('\n')].join('\n');
}

/** The notes of every benchmark, as a Markdown list. */
export function markdownNotes(report: BenchReport): string {
  return report.results
    .flatMap((result) => result.notes.map((note) => `- ${result.title}: ${note}`))
    .join('\n');
}

/** The sizes of the run, so that runs compared in review are known to be alike. */
function optionsLine(report: BenchReport): string {
  const options = report.options;
  return `Options: --objects ${options.objects} --repeats ${options.repeats} --shapes ${options.shapes.join(',')} --sizes ${options.shapeSizes.join(',')} --other-objects ${options.otherObjects} --shape-repeats ${options.shapeRepeats} --shard-sizes ${options.shardSizes.join(',')} --shard-by ${options.shardBy.join(',')}; benchmarks: ${report.results.map((result) => result.id).join(', ') || 'none'}.`;
}

/** How long seeding took, per benchmark, as one sentence. */
function seedingLine(report: BenchReport): string {
  if (report.seedings.length === 0) return 'Seeding: none.';
  const merged = mergeSeedings(report.seedings, (a, b) => a.benchmark === b.benchmark);
  const parts = merged.map(
    (seeding) =>
      `${seeding.benchmark} ${formatNumber(seeding.objects, 0)} ${seeding.kind}${seeding.namespaces > 1 ? ` over ${seeding.namespaces} namespaces` : ''} in ${formatNumber(seeding.ms / 1000)} s (${formatNumber(seeding.requests / (seeding.ms / 1000), 0)} requests/s)`,
  );
  const totalMs = report.seedings.reduce((sum, seeding) => sum + seeding.ms, 0);
  return `Seeding (before the timed runs, not timed): ${parts.join('; ')}; ${formatNumber(totalMs / 1000)} s in all.`;
}
