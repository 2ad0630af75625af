import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchReport } from '../runner.js';
import { renderSvgChart } from './svg-chart.js';
import { markdownNotes, markdownTables } from './table.js';

/** The files one run wrote. */
export interface WrittenResults {
  json: string;
  latestJson: string;
  latestSvg: string;
  latestMarkdown: string;
  /**
   * `<server kind>.md`: the same tables as `latest.md`, kept under version control (the
   * rest of the directory is ignored) so that a change's run shows as a diff in review.
   */
  committedMarkdown: string;
}

/**
 * Writes a report into `dir` (created if missing): `<timestamp>.json`, `latest.json`,
 * `latest.svg` (the bar chart), `latest.md` (the tables and notes) and the same as
 * `<server kind>.md` (`local.md`, `real.md`), the file committed with a change.
 */
export async function writeResults(report: BenchReport, dir: string): Promise<WrittenResults> {
  await mkdir(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const files: WrittenResults = {
    json: join(dir, `${stamp}.json`),
    latestJson: join(dir, 'latest.json'),
    latestSvg: join(dir, 'latest.svg'),
    latestMarkdown: join(dir, 'latest.md'),
    committedMarkdown: join(dir, `${report.server.kind}.md`),
  };
  await writeFile(files.json, json);
  await writeFile(files.latestJson, json);
  await writeFile(files.latestSvg, renderSvgChart(report));
  const markdown = `${markdownTables(report)}\n\nNotes:\n\n${markdownNotes(report)}\n`;
  await writeFile(files.latestMarkdown, markdown);
  await writeFile(files.committedMarkdown, markdown);
  return files;
}
