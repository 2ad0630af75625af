import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tinyBenchOptions } from '../benchmark.js';
import type { BenchReport } from '../runner.js';
import { renderSvgChart } from './svg-chart.js';
import { markdownNotes, markdownTables } from './table.js';
import { writeResults } from './write-results.js';

const report: BenchReport = {
  startedAt: '2026-01-02T03:04:05.678Z',
  durationMs: 1234,
  environment: {
    node: 'v24.21.0',
    platform: 'linux',
    cpus: 2,
    cpuModel: 'cpu',
    libraries: { '@ops/core': '0.1.0', '@kubernetes/client-node': '2.0.1' },
  },
  server: { kind: 'real', name: 'kube-apiserver v1.37.2 (etcd 3.7.3)' },
  options: tinyBenchOptions,
  skipped: [{ id: 'nodes', title: 'Nodes', reason: 'needs | nodes' }],
  seedings: [
    {
      benchmark: 'demo',
      kind: 'Pods',
      namespace: 'demo',
      objects: 10_000,
      requests: 20_000,
      ms: 40_000,
    },
  ],
  results: [
    {
      id: 'demo',
      title: 'Demo <one>',
      metrics: [
        { name: 'a / b', value: 1.234, unit: '×' },
        { name: 'time', value: 1234.5, unit: 'ms' },
        { name: 'writes', value: 0, unit: 'writes' },
      ],
      targets: [
        { target: 'a within 1.5× of b', measured: '1.23×', met: true },
        { target: 'never | pipes', measured: 'x', met: false },
      ],
      charts: [
        {
          title: 'Bars & more',
          unit: 'ms',
          bars: [
            { label: 'first', value: 10 },
            { label: 'second', value: 5 },
            { label: 'broken', value: Number.NaN },
          ],
        },
      ],
      notes: ['a note'],
      samples: {},
    },
  ],
};

describe('reports', () => {
  it('formats figures and targets as Markdown tables', () => {
    const text = markdownTables(report);
    expect(text).toContain('| Demo <one> | a / b | 1.23× |');
    expect(text).toContain('| Demo <one> | time | 1,235 ms |');
    expect(text).toContain('| Demo <one> | writes | 0 writes |');
    expect(text).toContain('| Demo <one> | a within 1.5× of b | 1.23× | yes |');
    expect(text).toContain('| Demo <one> | never \\| pipes | x | **no** |');
    expect(markdownNotes(report)).toBe('- Demo <one>: a note');
  });

  it('names the Node.js, the libraries compared, the server and how long seeding took', () => {
    const text = markdownTables(report);
    expect(text).toContain('Node v24.21.0, 2 × cpu');
    expect(text).toContain('Libraries: @ops/core 0.1.0, @kubernetes/client-node 2.0.1.');
    expect(text).toContain('Server: kube-apiserver v1.37.2 (etcd 3.7.3).');
    expect(text).toContain(
      `Options: --objects ${tinyBenchOptions.objects} --repeats ${tinyBenchOptions.repeats} --shapes pods,configmaps,managed-fields --sizes 100,200 --other-objects 200 --shape-repeats 1 --shard-sizes 40 --shard-by name,namespace;`,
    );
    expect(text).toContain(
      'Seeding (before the timed runs, not timed): demo 10,000 Pods in 40.0 s (500 requests/s); 40.0 s in all.',
    );
  });

  it('gives a skipped benchmark one row with its reason', () => {
    expect(markdownTables(report)).toContain(
      '| Nodes | not run on this server: needs \\| nodes | — |',
    );
  });

  it('renders one bar per value in well-formed, escaped SVG', () => {
    const svg = renderSvgChart(report);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<rect x=/g)).toHaveLength(3);
    expect(svg).toContain('Bars &amp; more');
    expect(svg).toContain('kube-apiserver v1.37.2 (etcd 3.7.3)');
    expect(svg).toContain('>n/a<');
    expect(svg).not.toContain('NaN');
    // The largest bar spans the full width; the half-size one half of it.
    const widths = [...svg.matchAll(/<rect x="\d+" y="\d+" width="([\d.]+)"/g)].map((m) =>
      Number(m[1]),
    );
    expect(widths[1]).toBeCloseTo((widths[0] ?? 0) / 2, 0);
  });

  it('writes the timestamped and latest files, and the committed tables named after the server kind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bench-report-'));
    try {
      const files = await writeResults(report, dir);
      expect(files.json).toBe(join(dir, '2026-01-02T03-04-05-678Z.json'));
      expect(JSON.parse(await readFile(files.latestJson, 'utf8'))).toEqual(
        JSON.parse(JSON.stringify(report)),
      );
      expect(await readFile(files.json, 'utf8')).toBe(await readFile(files.latestJson, 'utf8'));
      expect(await readFile(files.latestSvg, 'utf8')).toContain('<svg');
      expect(await readFile(files.latestMarkdown, 'utf8')).toContain(
        '| Benchmark | Measure | Result |',
      );
      expect(files.committedMarkdown).toBe(join(dir, `${report.server.kind}.md`));
      expect(await readFile(files.committedMarkdown, 'utf8')).toBe(
        await readFile(files.latestMarkdown, 'utf8'),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
