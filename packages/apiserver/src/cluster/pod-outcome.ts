import {
  parsePodExitCode,
  parsePodRunDuration,
  podExitCodeAnnotation,
  podRunDurationAnnotation,
} from './pod-lifecycle-annotations.js';

/** How a Pod that runs to completion ends: after how long, with which exit code. */
export interface PodOutcome {
  /** How long its containers run once the Pod is Running, in ms. */
  runDurationMs: number;
  /** The exit code of every container: 0 -> Succeeded, 1 to 255 -> Failed. */
  exitCode: number;
  /** One message per annotation that could not be read, saying which fallback was used. */
  problems: string[];
}

/** The server-wide defaults a {@link podOutcome} falls back on. */
export interface PodOutcomeDefaults {
  runDurationMs: number;
  exitCode: number;
}

/**
 * The outcome a Pod's annotations ask for ({@link podRunDurationAnnotation},
 * {@link podExitCodeAnnotation}), the defaults where they are absent. Never throws: as on the
 * `cluster` plane's kwok stages, a run duration that is not a duration falls back to the
 * default, and an exit code that is not an integer from 0 to 255 fails the Pod with exit code
 * 1 (rather than run it forever); each such value is described in `problems`.
 */
export function podOutcome(
  annotations: Readonly<Record<string, string>>,
  defaults: PodOutcomeDefaults,
): PodOutcome {
  const problems: string[] = [];
  let runDurationMs = defaults.runDurationMs;
  const duration = annotations[podRunDurationAnnotation];
  if (duration !== undefined) {
    try {
      runDurationMs = parsePodRunDuration(duration);
    } catch (error) {
      problems.push(`${(error as Error).message}; the Pod runs for the default ${runDurationMs}ms`);
    }
  }
  let exitCode = defaults.exitCode;
  const code = annotations[podExitCodeAnnotation];
  if (code !== undefined) {
    try {
      exitCode = parsePodExitCode(code);
    } catch (error) {
      exitCode = 1;
      problems.push(`${(error as Error).message}; the Pod fails with exit code 1`);
    }
  }
  return { runDurationMs, exitCode, problems };
}
