import { constants } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { BodyTooLongError } from '../errors/body-too-long-error.js';
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

  it('refuses an ASCII body longer than a string can be before joining it, naming its size and the fix', () => {
    // The same 1 MiB chunk pushed again and again: no memory is taken for the whole.
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    const body = new BodyText();
    const count = Math.ceil(constants.MAX_STRING_LENGTH / chunk.length) + 1;
    for (let i = 0; i < count; i++) body.push(chunk);
    let thrown: unknown;
    try {
      body.text();
    } catch (error) {
      thrown = error;
    }
    expect(BodyTooLongError.isInstance(thrown)).toBe(true);
    expect((thrown as BodyTooLongError).bytes).toBe(count * chunk.length);
    expect((thrown as Error).message).toBe(
      `the answer is ${(count * chunk.length).toLocaleString('en-US')} bytes, longer than the longest string Node.js can hold (${constants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters): ask for it in pages (a list's \`limit\` and \`continue\`; an informer's \`pageSize\`)`,
    );
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

  it('refuses an ASCII body longer than a string can be without decoding it', () => {
    // Never written to: the pages of an unsafe allocation are not touched.
    const body = Buffer.allocUnsafe(constants.MAX_STRING_LENGTH + 1);
    expect(() => decodeBodyText(body, true)).toThrow(BodyTooLongError);
  });

  it('equals a UTF-8 decode for bodies above the Latin-1 limit', () => {
    const ascii = Buffer.alloc(maxLatin1BodyBytes + 10, 'a');
    expect(decodeBodyText(ascii, true)).toBe(ascii.toString('utf8'));
    const mixed = Buffer.concat([ascii, Buffer.from('é')]);
    expect(decodeBodyText(mixed)).toBe(mixed.toString('utf8'));
  });
});
