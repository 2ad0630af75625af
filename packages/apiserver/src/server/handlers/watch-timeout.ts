import { StatusError } from '../../api/status-error.js';

/**
 * The longest watch timeout honoured, in seconds: Node's timers hold at most 2^31 − 1 ms
 * (about 24.8 days) and fire at once beyond it, so longer `timeoutSeconds` are capped here.
 */
export const maxWatchTimeoutSeconds = Math.floor((2 ** 31 - 1) / 1000);

/**
 * How long a watch lasts, in milliseconds, from its `timeoutSeconds` query parameter, as
 * kube-apiserver decides (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go,
 * ListResource): a positive value is used as given, capped at
 * {@link maxWatchTimeoutSeconds}; absent or 0 means the server's default, a random
 * time between `minRequestTimeoutSeconds` and twice it (`--min-request-timeout`, 1800 s by
 * default), so that the watches of many clients do not all end together; a negative value
 * ends the watch at once, as kube's timer does.
 *
 * @param random source of randomness in `[0, 1)`.
 * @throws {StatusError} 400 when the value is not an integer (the request parser refuses
 *   those first, with Go's message).
 */
export function watchTimeoutMs(
  value: string | null,
  minRequestTimeoutSeconds: number,
  random: () => number = Math.random,
): number {
  const seconds = value === null || value === '' ? 0 : Number(value);
  if (!Number.isInteger(seconds))
    throw StatusError.badRequest(
      `timeoutSeconds: Invalid value: "${value}": must be an integer number of seconds`,
    );
  if (seconds < 0) return 0;
  if (seconds > 0) return Math.min(seconds, maxWatchTimeoutSeconds) * 1000;
  const chosen = minRequestTimeoutSeconds * (1 + random());
  return Math.round(Math.min(chosen, maxWatchTimeoutSeconds) * 1000);
}
