import { describe, expect, it } from 'vitest';
import {
  defaultPodRunDuration,
  parsePodExitCode,
  parsePodRunDuration,
  podExitCodeAnnotation,
  podRunDurationAnnotation,
} from './pod-lifecycle-annotations.js';

describe('pod lifecycle annotations', () => {
  it('reads durations as Go does', () => {
    expect(parsePodRunDuration('0')).toBe(0);
    expect(parsePodRunDuration('0s')).toBe(0);
    expect(parsePodRunDuration('500ms')).toBe(500);
    expect(parsePodRunDuration('3s')).toBe(3000);
    expect(parsePodRunDuration('1.5s')).toBe(1500);
    expect(parsePodRunDuration('1m30s')).toBe(90_000);
    expect(parsePodRunDuration('1h')).toBe(3_600_000);
    expect(parsePodRunDuration('250us')).toBe(0.25);
    expect(parsePodRunDuration(defaultPodRunDuration)).toBe(1000);
  });

  it('refuses what is not a duration, naming the annotation', () => {
    for (const bad of ['', '3', 's', '-1s', '3 s', '3sec', '1m30']) {
      expect(() => parsePodRunDuration(bad)).toThrow(
        `annotation ${podRunDurationAnnotation}="${bad}" is not a duration: write a number with a unit, such as 500ms, 3s or 1m30s`,
      );
    }
  });

  it('reads exit codes from 0 to 255, 0 when absent', () => {
    expect(parsePodExitCode(undefined)).toBe(0);
    expect(parsePodExitCode('0')).toBe(0);
    expect(parsePodExitCode('3')).toBe(3);
    expect(parsePodExitCode('255')).toBe(255);
    for (const bad of ['', '-1', '256', 'one', '1.5']) {
      expect(() => parsePodExitCode(bad)).toThrow(
        `annotation ${podExitCodeAnnotation}="${bad}" is not an exit code`,
      );
    }
  });
});
