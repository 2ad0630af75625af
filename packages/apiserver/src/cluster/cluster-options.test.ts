import { describe, expect, it } from 'vitest';
import { resolveClusterOptions } from './cluster-options.js';

describe('resolveClusterOptions', () => {
  it('runs Pods to completion after 1s with exit code 0 by default, and runs Jobs', () => {
    expect(resolveClusterOptions(undefined)).toMatchObject({
      podRunDurationMs: 1000,
      podExitCode: 0,
      jobs: true,
    });
    expect(resolveClusterOptions(false).jobs).toBe(false);
    expect(resolveClusterOptions({ podRunDurationMs: 0, podExitCode: 255 })).toMatchObject({
      podRunDurationMs: 0,
      podExitCode: 255,
    });
  });

  it('refuses run durations and exit codes a Pod cannot have, naming the option', () => {
    expect(() => resolveClusterOptions({ podRunDurationMs: -1 })).toThrow(
      'cluster option podRunDurationMs must be a number of milliseconds >= 0, got -1',
    );
    expect(() => resolveClusterOptions({ podRunDurationMs: Number.NaN })).toThrow(
      /podRunDurationMs .* got NaN/,
    );
    expect(() => resolveClusterOptions({ podExitCode: 256 })).toThrow(
      'cluster option podExitCode must be an integer from 0 (Succeeded) to 255, got 256',
    );
    expect(() => resolveClusterOptions({ podExitCode: 1.5 })).toThrow(/podExitCode .* got 1.5/);
  });
});
