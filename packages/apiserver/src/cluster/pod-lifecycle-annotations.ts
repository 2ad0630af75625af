/**
 * The per-Pod annotations that steer how a Pod runs to completion without a container
 * runtime, the same on every control plane of this project: the local server's simulated
 * kubelet and the kwok stages of envtest's `cluster` plane read these names.
 *
 * They apply to Pods whose `restartPolicy` is `Never` or `OnFailure`; Pods with `Always` (the
 * default, and every Deployment's) keep running whatever they say.
 */

/**
 * How long the Pod's containers run once the Pod is Running, as a Go duration string
 * (`time.ParseDuration`: `500ms`, `3s`, `1m30s`, `0s`). Absent: the plane's default
 * ({@link defaultPodRunDuration} unless configured).
 */
export const podRunDurationAnnotation = 'ops-ts.github.io/run-duration';

/**
 * The exit code the Pod's containers end with, an integer from 0 to 255: `0` (the default
 * when absent) ends the Pod `Succeeded` with reason `Completed`; 1 to 255 end it `Failed` with
 * reason `Error` and that exit code.
 */
export const podExitCodeAnnotation = 'ops-ts.github.io/exit-code';

/** How long a finishing Pod runs when {@link podRunDurationAnnotation} is absent. */
export const defaultPodRunDuration = '1s';

const durationUnits: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const durationPart = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/**
 * Milliseconds of a {@link podRunDurationAnnotation} value: a sequence of decimal numbers
 * each with a unit (`ns`, `us`, `ms`, `s`, `m`, `h`), as Go's `time.ParseDuration` reads it
 * (kwok's stages parse the value with it), or `0`.
 *
 * @throws {Error} naming the annotation and showing valid values when `value` is not a
 *   non-negative duration.
 */
export function parsePodRunDuration(value: string): number {
  const text = value.trim();
  if (text === '0') return 0;
  let total = 0;
  let offset = 0;
  while (offset < text.length) {
    durationPart.lastIndex = offset;
    const match = durationPart.exec(text);
    if (!match?.[1] || !match[2]) break;
    total += Number(match[1]) * (durationUnits[match[2]] ?? 0);
    offset = durationPart.lastIndex;
  }
  if (text === '' || offset !== text.length)
    throw new Error(
      `annotation ${podRunDurationAnnotation}="${value}" is not a duration: write a number with a unit, such as 500ms, 3s or 1m30s`,
    );
  return total;
}

/**
 * The exit code of a {@link podExitCodeAnnotation} value (absent: 0).
 *
 * @throws {Error} naming the annotation when `value` is not an integer from 0 to 255.
 */
export function parsePodExitCode(value: string | undefined): number {
  if (value === undefined) return 0;
  const text = value.trim();
  const code = /^\d{1,3}$/.test(text) ? Number(text) : Number.NaN;
  if (!(code >= 0 && code <= 255))
    throw new Error(
      `annotation ${podExitCodeAnnotation}="${value}" is not an exit code: write an integer from 0 (Succeeded) to 255 (1 to 255: Failed)`,
    );
  return code;
}
