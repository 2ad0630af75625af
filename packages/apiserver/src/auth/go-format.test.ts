import { describe, expect, it } from 'vitest';
import { aggregateMessage, goQuote, goSprintfNoArgs } from './go-format.js';

describe('goQuote', () => {
  it('quotes and escapes as Go %q does', () => {
    expect(goQuote('pods')).toBe('"pods"');
    expect(goQuote('')).toBe('""');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('tab\tnew\nbell\u0007')).toBe('"tab\\tnew\\nbell\\a"');
    expect(goQuote('\u0001\u007f')).toBe('"\\x01\\x7f"');
    expect(goQuote('\u0085\u200b')).toBe('"\\u0085\\u200b"');
    expect(goQuote('héllo 世界 🙂')).toBe('"héllo 世界 🙂"');
  });
});

describe('goSprintfNoArgs', () => {
  it('prints verbs without arguments as Go does', () => {
    expect(goSprintfNoArgs('plain text')).toBe('plain text');
    expect(goSprintfNoArgs('100%% sure')).toBe('100% sure');
    expect(goSprintfNoArgs('a %s b')).toBe('a %!s(MISSING) b');
    expect(goSprintfNoArgs('path "/a%2b"')).toBe('path "/a%!b(MISSING)"');
    expect(goSprintfNoArgs('ends with %')).toBe('ends with %!(NOVERB)');
  });
});

describe('aggregateMessage', () => {
  it('prints one message bare and several in brackets, without duplicates', () => {
    expect(aggregateMessage([])).toBe('');
    expect(aggregateMessage(['a'])).toBe('a');
    expect(aggregateMessage(['a', 'a'])).toBe('a');
    expect(aggregateMessage(['a', 'b', 'a'])).toBe('[a, b]');
  });
});
