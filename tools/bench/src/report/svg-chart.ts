import type { ChartPanel } from '../benchmark.js';
import { formatNumber } from '../harness/format.js';
import type { BenchReport } from '../runner.js';

const width = 860;
const labelWidth = 330;
const valueWidth = 110;
const barHeight = 20;
const gap = 6;
const titleHeight = 30;
const panelGap = 18;
const palette = ['#2f6fdf', '#e07a2f', '#3a9d5d', '#9b59b6', '#c0392b', '#7f8c8d'];

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The height one panel takes. */
function panelHeight(panel: ChartPanel): number {
  return titleHeight + panel.bars.length * (barHeight + gap) + panelGap;
}

/**
 * Renders every chart panel of a report as one SVG document: a horizontal bar chart per
 * panel, bars scaled to the panel's largest value, each labelled with its value and unit.
 * Non-finite values are drawn as empty bars labelled `n/a`. No dependencies, no scripts.
 */
export function renderSvgChart(report: BenchReport): string {
  const panels = report.results.flatMap((result) => result.charts);
  const height = 50 + panels.reduce((sum, panel) => sum + panelHeight(panel), 0);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="12" y="24" font-size="15" font-weight="600">@ops/bench — ${escapeXml(report.startedAt)} — Node ${escapeXml(report.environment.node)}, ${report.environment.cpus} CPUs — ${escapeXml(report.server.name)}</text>`,
  ];
  let y = 50;
  for (const panel of panels) {
    parts.push(
      `<text x="12" y="${y + 16}" font-size="13" font-weight="600">${escapeXml(panel.title)}</text>`,
    );
    const finite = panel.bars.map((bar) => (Number.isFinite(bar.value) ? bar.value : 0));
    const max = Math.max(...finite, Number.MIN_VALUE);
    const span = width - labelWidth - valueWidth - 24;
    panel.bars.forEach((bar, index) => {
      const top = y + titleHeight + index * (barHeight + gap);
      const finiteValue = Number.isFinite(bar.value) ? Math.max(0, bar.value) : 0;
      const barWidth = Math.max(1, (finiteValue / max) * span);
      const color = palette[index % palette.length] ?? '#2f6fdf';
      const valueText = Number.isFinite(bar.value)
        ? `${formatNumber(bar.value)} ${panel.unit}`
        : 'n/a';
      parts.push(
        `<text x="${labelWidth}" y="${top + 14}" text-anchor="end">${escapeXml(bar.label)}</text>`,
        `<rect x="${labelWidth + 8}" y="${top}" width="${barWidth.toFixed(1)}" height="${barHeight}" fill="${color}" rx="2"/>`,
        `<text x="${(labelWidth + 14 + barWidth).toFixed(1)}" y="${top + 14}">${escapeXml(valueText)}</text>`,
      );
    });
    y += panelHeight(panel);
  }
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
