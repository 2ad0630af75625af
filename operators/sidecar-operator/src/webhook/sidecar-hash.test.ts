import { createHash } from 'node:crypto';
import type { Pod } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { recordedSidecarHashes, sidecarHash, sidecarHashAnnotation } from './sidecar-hash.js';

const spec = (containers: unknown[]) =>
  ({ spec: { containers } }) as Parameters<typeof sidecarHash>[0];

describe('sidecarHash', () => {
  it('is the SHA-256 hex of the containers as JSON with sorted keys', () => {
    const containers = [{ name: 'log-agent', image: 'busybox:1.36' }];
    expect(sidecarHash(spec(containers))).toBe(
      createHash('sha256').update('[{"image":"busybox:1.36","name":"log-agent"}]').digest('hex'),
    );
  });

  it('ignores key order but not container order, and treats absent containers as []', () => {
    const a = { name: 'a', image: 'x', args: ['1', '2'] };
    const b = { name: 'b', image: 'y' };
    expect(sidecarHash(spec([{ args: ['1', '2'], image: 'x', name: 'a' }, b]))).toBe(
      sidecarHash(spec([a, b])),
    );
    expect(sidecarHash(spec([b, a]))).not.toBe(sidecarHash(spec([a, b])));
    expect(sidecarHash(spec([{ ...a, args: ['2', '1'] }]))).not.toBe(sidecarHash(spec([a])));
    expect(sidecarHash({ spec: {} } as Parameters<typeof sidecarHash>[0])).toBe(
      sidecarHash(spec([])),
    );
  });
});

describe('recordedSidecarHashes', () => {
  const withAnnotation = (value: string | undefined): Pod => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: value === undefined ? {} : { annotations: { [sidecarHashAnnotation]: value } },
  });

  it('reads the JSON map, and reads a missing or hand-broken annotation as no hashes', () => {
    expect(recordedSidecarHashes(withAnnotation('{"logging":"abc","n":1}'))).toEqual({
      logging: 'abc',
    });
    expect(recordedSidecarHashes(withAnnotation(undefined))).toEqual({});
    expect(recordedSidecarHashes(withAnnotation('not json'))).toEqual({});
    expect(recordedSidecarHashes(withAnnotation('["logging"]'))).toEqual({});
  });
});
