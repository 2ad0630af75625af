import { StatusError } from '../../api/status-error.js';

/**
 * The error kube-apiserver answers when a read or watch asks for a resourceVersion newer
 * than it has (staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go,
 * waitUntilFreshAndBlock; storage.NewTooLargeResourceVersionError): 504 `Timeout`, "Too
 * large resource version: <requested>, current: <current>", with the
 * `ResourceVersionTooLarge` cause client-go's reflector looks for, and a retry after 1 s.
 */
export function tooLargeResourceVersion(requested: number, current: number): StatusError {
  return new StatusError(
    504,
    'Timeout',
    `Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds: 1,
    },
  );
}
