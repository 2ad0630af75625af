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
}

/**
 * Writes a report into `dir` (created if missing): `<timestamp>.json`, `latest.json`,
 * `latest.svg` (the bar chart) and `latest.md` (the tables and notes).
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
  };
  await writeFile(files.json, json);
  await writeFile(files.latestJson, json);
  await writeFile(files.latestSvg, renderSvgChart(report));
  await writeFile(
    files.latestMarkdown,
    `${markdownTables(report)}\n\nNotes:\n\n${markdownNotes(report)}\n`,
  );
  return files;
}
