import { describe, expect, it } from 'vitest';
import { createCelEnvironment } from './cel-environment.js';
import { CelQuantity } from './cel-quantity.js';

const env = createCelEnvironment().registerVariable('self', 'dyn');
const run = (expression: string) => env.evaluate(expression, { self: null });

describe('the quantity library', () => {
  it('parses Kubernetes quantities exactly', () => {
    expect(CelQuantity.parse('1Gi').asInteger()).toBe(1073741824n);
    expect(CelQuantity.parse('500m').asApproximateFloat()).toBe(0.5);
    expect(CelQuantity.parse('1.5k').asInteger()).toBe(1500n);
    expect(CelQuantity.parse('2e3').asInteger()).toBe(2000n);
    expect(CelQuantity.parse('-1M').sign()).toBe(-1n);
    expect(() => CelQuantity.parse('1 Gi')).toThrow(/must match the regular expression/);
    expect(() => CelQuantity.parse('1Mk')).toThrow(/suffix/);
  });

  it('compares, adds and converts as kube-apiserver does', () => {
    expect(run('quantity("1Gi").isGreaterThan(quantity("1000Mi"))')).toBe(true);
    expect(run('quantity("500m").isLessThan(quantity("1"))')).toBe(true);
    expect(run('quantity("1") == quantity("1000m")')).toBe(true);
    expect(run('quantity("1k").compareTo(quantity("1000"))')).toBe(0n);
    expect(run('quantity("1.5").add(quantity("500m")).asInteger()')).toBe(2n);
    expect(run('quantity("10").sub(3).asInteger()')).toBe(7n);
    expect(run('quantity("1.5").isInteger()')).toBe(false);
    expect(run('isQuantity("1Gi") && !isQuantity("abc")')).toBe(true);
    expect(() => run('quantity("1.5").asInteger()')).toThrow(/cannot convert value to integer/);
    expect(() => run('quantity("x")')).toThrow(/must match the regular expression/);
  });
});
