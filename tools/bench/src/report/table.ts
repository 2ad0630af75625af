import { formatNumber } from '../harness/format.js';
import type { BenchReport } from '../runner.js';

const escapeCell = (text: string) => text.replace(/\|/g, '\\|');

/**
 * The results as two Markdown tables: every figure (benchmark, measure, value), then every
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
  const header = `Node ${environment.node}, ${environment.cpus} × ${environment.cpuModel}, ${environment.platform}; ${report.startedAt}.\n\nLibraries: ${libraries}.`;
  return [header, '', rows.join('\n'), '', targets.join('\n')].join('\n');
}

/** The notes of every benchmark, as a Markdown list. */
export function markdownNotes(report: BenchReport): string {
  return report.results
    .flatMap((result) => result.notes.map((note) => `- ${result.title}: ${note}`))
    .join('\n');
}
