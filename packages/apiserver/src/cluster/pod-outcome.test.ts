import { describe, expect, it } from 'vitest';
import { podOutcome } from './pod-outcome.js';

const defaults = { runDurationMs: 1000, exitCode: 0 };

describe('podOutcome', () => {
  it('uses the defaults without annotations', () => {
    expect(podOutcome({}, { runDurationMs: 250, exitCode: 4 })).toEqual({
      runDurationMs: 250,
      exitCode: 4,
      problems: [],
    });
  });

  it('reads the annotations', () => {
    expect(
      podOutcome(
        { 'ops-ts.github.io/run-duration': '1m30s', 'ops-ts.github.io/exit-code': '3' },
        defaults,
      ),
    ).toEqual({ runDurationMs: 90_000, exitCode: 3, problems: [] });
  });

  it('falls back to the default duration and to exit code 1 on bad values, saying so', () => {
    const outcome = podOutcome(
      { 'ops-ts.github.io/run-duration': 'soon', 'ops-ts.github.io/exit-code': '300' },
      defaults,
    );
    expect(outcome.runDurationMs).toBe(1000);
    expect(outcome.exitCode).toBe(1);
    expect(outcome.problems).toEqual([
      expect.stringMatching(/run-duration="soon" is not a duration.*default 1000ms/),
      expect.stringMatching(/exit-code="300" is not an exit code.*exit code 1/),
    ]);
  });
});
