import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import {
  fieldSelectorToString,
  matchesFieldSelector,
  parseFieldSelector,
} from './field-selector.js';

describe('field selectors', () => {
  it('parses =, == and != terms with escapes', () => {
    expect(parseFieldSelector('metadata.name=a,status.phase!=Running,spec.x==b\\,c')).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
      { field: 'spec.x', operator: '=', value: 'b,c' },
    ]);
    expect(parseFieldSelector('')).toEqual([]);
  });

  it('rejects terms without operator and bad escapes', () => {
    for (const bad of ['metadata.name', '=x', 'a=b\\q']) {
      let error: unknown;
      try {
        parseFieldSelector(bad);
      } catch (e) {
        error = e;
      }
      expect(ApiError.isInstance(error) && error.reason).toBe('BadRequest');
    }
  });

  it('prints equality maps with escaped values, and round-trips them', () => {
    const text = fieldSelectorToString({ 'metadata.name': 'a,b', 'spec.nodeName': 'n=1' });
    expect(text).toBe('metadata.name=a\\,b,spec.nodeName=n\\=1');
    expect(parseFieldSelector(text).map((r) => r.value)).toEqual(['a,b', 'n=1']);
    expect(fieldSelectorToString('x=y')).toBe('x=y');
  });

  it('matches any field path, absent fields being empty', () => {
    const pod = { metadata: { name: 'p', namespace: 'n' }, spec: { replicas: 2, paused: false } };
    const matches = (text: string) => matchesFieldSelector(parseFieldSelector(text), pod);
    expect(matches('metadata.name=p,metadata.namespace=n')).toBe(true);
    expect(matches('metadata.name!=p')).toBe(false);
    expect(matches('spec.replicas=2,spec.paused=false')).toBe(true);
    expect(matches('status.phase=')).toBe(true);
    expect(matches('status.phase!=Running')).toBe(true);
    expect(matches('spec=x')).toBe(false);
  });
});
