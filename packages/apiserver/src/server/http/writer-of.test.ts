import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { writerOf } from './writer-of.js';

const request = (userAgent?: string) =>
  ({ headers: userAgent ? { 'user-agent': userAgent } : {} }) as IncomingMessage;

describe('writerOf', () => {
  it('reads fieldManager, the User-Agent and force', () => {
    expect(
      writerOf(request('kubectl/v1.35.0'), new URLSearchParams('force=true'), {
        fieldManager: 'me',
      }),
    ).toEqual({ fieldManager: 'me', userAgent: 'kubectl/v1.35.0', force: true });
    expect(writerOf(request(), new URLSearchParams('force=False'), {})).toEqual({ force: false });
  });

  it('treats an empty fieldManager as none, and any force but 0 or false as true', () => {
    expect(writerOf(request(), new URLSearchParams('force=T'), { fieldManager: '' })).toEqual({
      force: true,
    });
  });
});
