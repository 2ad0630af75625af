import { describe, expect, it } from 'vitest';
import { BodyText, decodeBodyText, maxLatin1BodyBytes } from './body-text.js';

function collect(chunks: Buffer[]): string {
  const body = new BodyText();
  for (const chunk of chunks) body.push(chunk);
  return body.text();
}

describe('BodyText', () => {
  it('is empty without chunks', () => {
    expect(collect([])).toBe('');
  });

  it('joins ASCII chunks', () => {
    expect(collect([Buffer.from('{"a":'), Buffer.from('"b"}')])).toBe('{"a":"b"}');
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('{"name":"café ☃ 🚀"}');
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(collect([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe('{"name":"café ☃ 🚀"}');
    }
  });

  it('decodes text that turns non-ASCII after ASCII chunks', () => {
    expect(collect([Buffer.from('plain '), Buffer.from('naïve')])).toBe('plain naïve');
  });

  it('replaces invalid UTF-8 exactly as Buffer#toString does', () => {
    const bytes = Buffer.from([0x61, 0xff, 0x62, 0xc3]);
    expect(collect([bytes])).toBe(bytes.toString('utf8'));
    expect(collect([bytes])).toContain('\ufffd');
  });
});

describe('decodeBodyText', () => {
  it('equals a UTF-8 decode, for ASCII and non-ASCII bodies', () => {
    for (const text of ['{"kind":"Pod"}', '{"label":"ünïcode"}', '']) {
      expect(decodeBodyText(Buffer.from(text))).toBe(text);
    }
  });

  it('equals a UTF-8 decode for bodies above the Latin-1 limit', () => {
    const ascii = Buffer.alloc(maxLatin1BodyBytes + 10, 'a');
    expect(decodeBodyText(ascii, true)).toBe(ascii.toString('utf8'));
    const mixed = Buffer.concat([ascii, Buffer.from('é')]);
    expect(decodeBodyText(mixed)).toBe(mixed.toString('utf8'));
  });
});
