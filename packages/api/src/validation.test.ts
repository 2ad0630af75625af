import { describe, expect, it } from 'vitest';
import {
  validateDns1123Label,
  validateDns1123Subdomain,
  validateLabelValue,
  validateQualifiedName,
} from './validation.js';

describe('validation', () => {
  it.each(['a', 'A', 'a.b-c_d', 'example.com/name', 'x'.repeat(63), 'k8s.io/a'])(
    'accepts qualified name %j',
    (name) => {
      expect(validateQualifiedName(name)).toEqual([]);
    },
  );
  it.each(['', '-a', 'a-', 'a b', 'x'.repeat(64), '/a', 'a/', 'UPPER.com/a', 'a/b/c'])(
    'rejects qualified name %j',
    (name) => {
      expect(validateQualifiedName(name).length).toBeGreaterThan(0);
    },
  );
  it.each(['', 'a', 'a.b_c-d', 'x'.repeat(63)])('accepts label value %j', (value) => {
    expect(validateLabelValue(value)).toEqual([]);
  });
  it.each(['-a', 'a b', 'x'.repeat(64), 'a/b'])('rejects label value %j', (value) => {
    expect(validateLabelValue(value).length).toBeGreaterThan(0);
  });
  it('tells DNS labels from subdomains', () => {
    expect(validateDns1123Label('my-ns')).toEqual([]);
    expect(validateDns1123Label('my.ns').length).toBe(1);
    expect(validateDns1123Subdomain('app.example.com')).toEqual([]);
    expect(validateDns1123Subdomain('App').length).toBe(1);
    expect(
      validateDns1123Subdomain(`${`${'a'.repeat(63)}.`.repeat(4)}a`).some((e) => e.includes('253')),
    ).toBe(true);
  });
});
