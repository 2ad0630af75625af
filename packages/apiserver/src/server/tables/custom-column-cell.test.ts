import { describe, expect, it } from 'vitest';
import { customColumnCell } from './custom-column-cell.js';

const now = Date.parse('2026-01-01T00:10:00Z');

describe('customColumnCell (kube-apiserver CRD table convertor)', () => {
  it('prints string columns as client-go JSONPath prints values', () => {
    expect(customColumnCell('string', 'x', now)).toBe('x');
    expect(customColumnCell('string', 3, now)).toBe('3');
    expect(customColumnCell('string', 1.5, now)).toBe('1.5');
    expect(customColumnCell('string', 0.00001, now)).toBe('1e-05');
    expect(customColumnCell('string', 1234567.5, now)).toBe('1.2345675e+06');
    expect(customColumnCell('string', false, now)).toBe('false');
    expect(customColumnCell('string', ['a', 'b'], now)).toBe('["a","b"]');
    expect(customColumnCell('string', { z: 1, a: '<&>' }, now)).toBe(
      '{"a":"\\u003c\\u0026\\u003e","z":1}',
    );
  });

  it('keeps typed columns typed, and null for a value of another kind', () => {
    expect(customColumnCell('integer', 3, now)).toBe(3);
    expect(customColumnCell('integer', 3.9, now)).toBe(3);
    expect(customColumnCell('integer', '3', now)).toBeNull();
    expect(customColumnCell('number', 2, now)).toBe(2);
    expect(customColumnCell('number', 'x', now)).toBeNull();
    expect(customColumnCell('boolean', false, now)).toBe(false);
    expect(customColumnCell('boolean', 'true', now)).toBeNull();
    expect(customColumnCell('string', undefined, now)).toBeNull();
    expect(customColumnCell('string', null, now)).toBeNull();
  });

  it('prints date columns as ages, <invalid> or <unknown>', () => {
    expect(customColumnCell('date', '2026-01-01T00:00:00Z', now)).toBe('10m');
    expect(customColumnCell('date', '2026-01-01T00:09:30.5+00:00', now)).toBe('29s');
    expect(customColumnCell('date', 'garbage', now)).toBe('<invalid>');
    expect(customColumnCell('date', '2026-01-01', now)).toBe('<invalid>');
    expect(customColumnCell('date', '', now)).toBe('<unknown>');
    expect(customColumnCell('date', 5, now)).toBeNull();
  });
});
