import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { writerOf } from './writer-of.js';

const request = (userAgent?: string) =>
  ({ headers: userAgent ? { 'user-agent': userAgent } : {} }) as IncomingMessage;

describe('writerOf', () => {
  it('reads fieldManager, the User-Agent and force', () => {
    expect(
      writerOf(request('kubectl/v1.35.0'), new URLSearchParams('fieldManager=me&force=true')),
    ).toEqual({ fieldManager: 'me', userAgent: 'kubectl/v1.35.0', force: true });
    expect(writerOf(request(), new URLSearchParams('force=False'))).toEqual({ force: false });
  });

  it('answers 422 for a fieldManager kube-apiserver refuses, or a force that is no boolean', () => {
    expect(() =>
      writerOf(request(), new URLSearchParams(`fieldManager=${'x'.repeat(129)}`)),
    ).toThrow('fieldManager: Too long: may not be more than 128 bytes');
    expect(() => writerOf(request(), new URLSearchParams('force=yes'))).toThrow(
      'PatchOptions.meta.k8s.io "" is invalid: force: Invalid value: "yes": must be a boolean',
    );
  });
});
