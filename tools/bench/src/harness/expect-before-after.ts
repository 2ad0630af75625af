/**
 * Test support (not a benchmark): the invariants of an operator benchmark's before/after
 * report ({@link operatorAtScaleResult}), never a timing.
 */
import { expect } from 'vitest';
import type { BenchmarkResult } from '../benchmark.js';

/**
 * Checks both runtimes of `result` brought all `count` objects to `state`: finite times,
 * at least one reconcile per object, at least `minWrites` writes per object, a heap figure,
 * no 409 counted as negative, 0 writes at rest, every target met and every ratio finite.
 */
export function expectBeforeAndAfter(
  result: BenchmarkResult,
  wording: { singular: string; state: string },
  count: number,
  minWrites: number,
): void {
  const value = (name: string) => result.metrics.find((metric) => metric.name === name)?.value;
  const { singular, state } = wording;
  for (const runtime of ['before', 'after']) {
    const time = result.metrics.find((metric) => metric.name.startsWith(`${runtime}: time until`));
    expect(time?.value).toBeGreaterThan(0);
    expect(value(`${runtime}: reconciles until all ${state}`)).toBeGreaterThanOrEqual(count);
    expect(
      value(`${runtime}: operator writes answered 409 until all ${state}`),
    ).toBeGreaterThanOrEqual(0);
    expect(
      value(`${runtime}: operator writes until all ${state}, per ${singular}`),
    ).toBeGreaterThanOrEqual(minWrites);
    expect(Number.isFinite(value(`${runtime}: operator heap per ${singular}`))).toBe(true);
    expect(value(`${runtime}: operator writes at rest`)).toBe(0);
  }
  const ratios = result.metrics.filter((metric) => metric.name.startsWith('after / before: '));
  expect(ratios.map((metric) => metric.name)).toEqual(
    expect.arrayContaining([
      `after / before: time until all ${state}`,
      'after / before: reconciles',
      'after / before: writes',
    ]),
  );
  for (const metric of ratios) expect(Number.isFinite(metric.value)).toBe(true);
  expect(result.targets.every((target) => target.met)).toBe(true);
}
