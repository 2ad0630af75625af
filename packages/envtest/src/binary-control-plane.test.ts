import { describe, expect, it } from 'vitest';
import { featureGatesArgs } from './binary-control-plane.js';
import { Environment } from './environment.js';

describe('featureGatesArgs', () => {
  it("writes kube-apiserver's --feature-gates flag, sorted, and nothing for no gates", () => {
    expect(featureGatesArgs()).toEqual([]);
    expect(featureGatesArgs({})).toEqual([]);
    expect(featureGatesArgs({ ShardedListAndWatch: true, AnotherGate: false })).toEqual([
      '--feature-gates=AnotherGate=false,ShardedListAndWatch=true',
    ]);
  });

  it('refuses a name that is no feature gate, rather than passing a typo on', () => {
    expect(() => featureGatesArgs({ 'sharded-list': true })).toThrow(
      /"sharded-list" is not a feature gate's name .* fix the featureGates option/,
    );
  });
});

describe('Environment.start with featureGates', () => {
  it('refuses them on a plane other than binaries, saying how to fix it', async () => {
    await expect(
      Environment.start({ controlPlane: 'local', featureGates: { ShardedListAndWatch: true } }),
    ).rejects.toThrow(
      /featureGates option sets kube-apiserver's flags on the binaries plane; this suite runs on the local plane/,
    );
  });
});
