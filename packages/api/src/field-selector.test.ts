import { describe, expect, it } from 'vitest';
import { FieldSelectorError } from './errors/field-selector-error.js';
import {
  escapeFieldSelectorValue,
  matchesFieldSelector,
  parseFieldSelector,
} from './field-selector.js';

/** The message parseFieldSelector throws for `text`, or undefined when it parses. */
function failure(text: string): string | undefined {
  try {
    parseFieldSelector(text);
    return undefined;
  } catch (error) {
    if (!FieldSelectorError.isInstance(error)) throw error;
    expect(error.selector).toBe(text);
    return error.message;
  }
}

describe('parseFieldSelector', () => {
  it('reads =, == and != terms, skipping empty ones', () => {
    expect(parseFieldSelector('status.phase!=Running,,spec.x==y,metadata.name=a,')).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a' },
      { field: 'spec.x', operator: '=', value: 'y' },
      { field: 'status.phase', operator: '!=', value: 'Running' },
    ]);
    expect(parseFieldSelector('')).toEqual([]);
  });

  it('unescapes \\\\, \\, and \\= in values and keeps spaces where they are written', () => {
    expect(parseFieldSelector('metadata.name=a\\,b\\=c\\\\')).toEqual([
      { field: 'metadata.name', operator: '=', value: 'a,b=c\\' },
    ]);
    expect(parseFieldSelector(' metadata.name = x')).toEqual([
      { field: ' metadata.name ', operator: '=', value: ' x' },
    ]);
  });

  // Each message below is what kube-apiserver 1.37.2 answered for the same fieldSelector.
  it("refuses what kube-apiserver refuses, with kube-apiserver's words", () => {
    expect(failure('a')).toBe("invalid selector: 'a'; can't understand 'a'");
    // Terms are read in sorted order, so the first bad one in that order is named.
    expect(failure('x=1,b,a')).toBe("invalid selector: 'x=1,b,a'; can't understand 'a'");
    expect(failure('metadata.name=a\\b')).toBe(
      'invalid field selector: invalid escape sequence: \\b',
    );
    expect(failure('metadata.name!=a\\!b')).toBe(
      'invalid field selector: invalid escape sequence: \\!',
    );
    expect(failure('metadata.name=a\\')).toBe(
      'invalid field selector: invalid escape sequence: \\',
    );
    expect(failure('metadata.name=a=b')).toBe(
      'invalid field selector: unescaped character in value: 61',
    );
  });
});

describe('escapeFieldSelectorValue', () => {
  it('escapes exactly what the parser unescapes', () => {
    const value = 'a\\b,c=d!e';
    expect(escapeFieldSelectorValue(value)).toBe('a\\\\b\\,c\\=d!e');
    expect(parseFieldSelector(`f=${escapeFieldSelectorValue(value)}`)).toEqual([
      { field: 'f', operator: '=', value },
    ]);
  });
});

describe('matchesFieldSelector', () => {
  const pod = { metadata: { name: 'a', namespace: 'ns' }, spec: { replicas: 2, paused: false } };
  it('compares scalars as text and absent fields as empty', () => {
    expect(matchesFieldSelector(parseFieldSelector('metadata.name=a,spec.replicas=2'), pod)).toBe(
      true,
    );
    expect(matchesFieldSelector(parseFieldSelector('spec.paused=false'), pod)).toBe(true);
    expect(matchesFieldSelector(parseFieldSelector('status.phase!=Running'), pod)).toBe(true);
    expect(matchesFieldSelector(parseFieldSelector('status.phase='), pod)).toBe(true);
    expect(matchesFieldSelector(parseFieldSelector('spec='), pod)).toBe(true);
    expect(matchesFieldSelector(parseFieldSelector('metadata.name!=a'), pod)).toBe(false);
    expect(matchesFieldSelector([], pod)).toBe(true);
  });
});
