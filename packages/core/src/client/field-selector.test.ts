import { matchesFieldSelector } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { fieldSelectorRequirements, fieldSelectorToString } from './field-selector.js';

describe('field selectors on the client', () => {
  it('refuses a selector the server refuses, as a BadRequest with its message', () => {
    for (const [bad, message] of [
      ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
      ['a=b\\q', 'invalid field selector: invalid escape sequence: \\q'],
    ] as const) {
      let error: unknown;
      try {
        fieldSelectorRequirements(bad);
      } catch (e) {
        error = e;
      }
      expect(ApiError.isInstance(error) && error.reason).toBe('BadRequest');
      expect(ApiError.isInstance(error) && error.message).toContain(message);
    }
  });

  it('prints equality maps with values escaped as kube-apiserver reads them, and round-trips them', () => {
    const text = fieldSelectorToString({ 'metadata.name': 'a,b', 'spec.nodeName': 'n=1!' });
    // `!` is not escaped: kube-apiserver refuses `\!` as an invalid escape sequence.
    expect(text).toBe('metadata.name=a\\,b,spec.nodeName=n\\=1!');
    expect(fieldSelectorRequirements(text).map((r) => r.value)).toEqual(['a,b', 'n=1!']);
    expect(fieldSelectorToString('x=y')).toBe('x=y');
  });

  it('evaluates what it parses on an object', () => {
    const pod = { metadata: { name: 'p', namespace: 'n' } };
    expect(matchesFieldSelector(fieldSelectorRequirements('metadata.name=p'), pod)).toBe(true);
    expect(matchesFieldSelector(fieldSelectorRequirements('metadata.name!=p'), pod)).toBe(false);
  });
});
