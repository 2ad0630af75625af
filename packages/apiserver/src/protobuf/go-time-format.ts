/** Seconds of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z since the Unix epoch. */
const minSeconds = -62135596800n;
const maxSeconds = 253402300799n;

const pad = (value: number, width: number): string => String(value).padStart(width, '0');

/**
 * Formats Unix seconds and nanoseconds as Go's `metav1.Time` (`2006-01-02T15:04:05Z`, whole
 * seconds, UTC) or, with `micro`, as `metav1.MicroTime` (`2006-01-02T15:04:05.000000Z`).
 * Returns undefined when the instant is outside years 1 to 9999, or nanos is outside
 * 0..999,999,999 (Go refuses to marshal those as JSON).
 */
export const formatGoTime = (
  seconds: bigint,
  nanos: number,
  micro: boolean,
): string | undefined => {
  if (seconds < minSeconds || seconds > maxSeconds) return undefined;
  if (!Number.isInteger(nanos) || nanos < 0 || nanos > 999_999_999) return undefined;
  const date = new Date(Number(seconds) * 1000);
  const text =
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}` +
    `T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  return micro ? `${text}.${pad(Math.floor(nanos / 1000), 6)}Z` : `${text}Z`;
};

const fraction = (value: bigint, digits: number): string => {
  const text = value.toString().padStart(digits, '0').replace(/0+$/, '');
  return text ? `.${text}` : '';
};

/**
 * Formats nanoseconds as Go's `time.Duration.String()`: `0s`, `1.5µs`, `250ms`, `1h0m0s`,
 * `-2m3.5s`. Exact for the whole int64 range.
 */
export const formatGoDuration = (nanoseconds: bigint): string => {
  if (nanoseconds === 0n) return '0s';
  const negative = nanoseconds < 0n;
  const abs = negative ? -nanoseconds : nanoseconds;
  const sign = negative ? '-' : '';
  if (abs < 1000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${abs / 1000n}${fraction(abs % 1000n, 3)}µs`;
  if (abs < 1_000_000_000n) return `${sign}${abs / 1_000_000n}${fraction(abs % 1_000_000n, 6)}ms`;
  const totalSeconds = abs / 1_000_000_000n;
  const seconds = `${totalSeconds % 60n}${fraction(abs % 1_000_000_000n, 9)}s`;
  const totalMinutes = totalSeconds / 60n;
  if (totalMinutes === 0n) return `${sign}${seconds}`;
  const hours = totalMinutes / 60n;
  const minutes = `${totalMinutes % 60n}m`;
  return hours === 0n ? `${sign}${minutes}${seconds}` : `${sign}${hours}h${minutes}${seconds}`;
};
