import { describe, expect, it } from 'vitest';
import type { SyncContender } from '../harness/sync-protocol.js';
import { type Cell, cellReport, scalingReport } from './sync-cell-report.js';

function cell(
  ms: Partial<Record<SyncContender, number>>,
  failed: Partial<Record<SyncContender, string>> = {},
  size = 100_000,
): Cell {
  const entries = Object.entries(ms) as Array<[SyncContender, number]>;
  return {
    shape: 'pods',
    size,
    others: 0,
    ms: new Map(entries),
    heap: new Map(entries.map(([id]) => [id, id === 'ops' ? 1_000 : 4_000])),
    cpuMs: new Map(entries),
    failed: new Map(Object.entries(failed) as Array<[SyncContender, string]>),
  };
}

const tooLong = 'Error: Cannot create a string longer than 0x1fffffe8 characters';

describe('cellReport', () => {
  it('judges every goal on the medians when every contender synced', () => {
    const report = cellReport(
      cell({
        floor: 80,
        'bare-http': 100,
        ops: 110,
        'ops-one-page': 120,
        'client-node': 150,
        fluent: 120,
      }),
    );
    expect(report.targets.map(({ target, measured, met }) => [target, measured, met])).toEqual([
      ['Pods, 100,000: cold sync ops ≤ 1.15× bare GET + JSON.parse', '1.10×', true],
      ['Pods, 100,000: client-node ≥ 1.3× ops', '1.36×', true],
      ['Pods, 100,000: fluent ≥ 1.1× ops', '1.09×', false],
      ['Pods, 100,000: default paging ≤ 1.02× one page', '0.92×', true],
      ['Pods, 100,000: heap per object ops ≤ JSON.parse floor', '0.25×', true],
    ]);
  });

  it('counts a peer that could not sync as behind ops, says why, and reports no ratio for it', () => {
    const report = cellReport(
      cell(
        { floor: 800, 'bare-http': 1_000, ops: 900 },
        { 'client-node': tooLong, fluent: tooLong, 'ops-one-page': 'exited (code 1)' },
      ),
    );
    const byTarget = new Map(report.targets.map((target) => [target.target, target]));
    expect(byTarget.get('Pods, 100,000: client-node ≥ 1.3× ops')).toEqual({
      target: 'Pods, 100,000: client-node ≥ 1.3× ops',
      measured: `client-node informer could not sync (${tooLong}); ops did`,
      met: true,
    });
    expect(byTarget.get('Pods, 100,000: default paging ≤ 1.02× one page')?.met).toBe(true);
    // Each failure keeps a line of its own, as a miss.
    expect(byTarget.get('Pods, 100,000: fluent Watch synced')).toEqual({
      target: 'Pods, 100,000: fluent Watch synced',
      measured: tooLong,
      met: false,
    });
    for (const metric of report.metrics) expect(Number.isFinite(metric.value)).toBe(true);
    expect(report.metrics.map((metric) => metric.name)).not.toContain(
      'Pods, 100,000: client-node / ops',
    );
  });

  it('misses every goal when ops itself could not sync, and leaves one unjudged without its reference', () => {
    const opsFailed = cellReport(
      cell({ floor: 800, 'bare-http': 1_000, 'client-node': 2_000 }, { ops: 'timed out' }),
    );
    for (const target of opsFailed.targets) expect(target.met).toBe(false);
    expect(opsFailed.targets[1]?.measured).toBe('@ops/core Informer failed: timed out');

    const bareFailed = cellReport(
      cell({ floor: 800, ops: 900, 'client-node': 2_000 }, { 'bare-http': 'refused' }),
    );
    expect(bareFailed.targets[0]).toEqual({
      target: 'Pods, 100,000: cold sync ops ≤ 1.15× bare GET + JSON.parse',
      measured: 'not judged: bare GET + JSON.parse failed: refused',
      met: false,
    });
  });
});

describe('scalingReport', () => {
  it('compares time and heap per object of the largest size with the smallest', () => {
    const report = scalingReport([
      cell({ ops: 100 }, {}, 10_000),
      cell({ ops: 1_300 }, {}, 100_000),
    ]);
    expect(report.targets.map(({ measured, met }) => [measured, met])).toEqual([
      ['1.30×', false],
      ['1.00×', true],
    ]);
  });
});
