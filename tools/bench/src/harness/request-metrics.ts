/** The verbs of `apiserver_request_total` that write (kube-apiserver's names for them). */
const writeVerbs = new Set(['POST', 'PUT', 'PATCH', 'APPLY', 'DELETE', 'DELETECOLLECTION']);

const prefix = 'apiserver_request_total{';

/** The value of label `name` in a Prometheus label set (`a="x",b="y"`), if present. */
function label(labels: string, name: string): string | undefined {
  return new RegExp(`(?:^|,)${name}="([^"]*)"`).exec(labels)?.[1];
}

/**
 * The write requests kube-apiserver counted for the core-group resource `plural` (e.g.
 * `configmaps`), subresources included, summed over every response code, from the text of
 * its `/metrics` endpoint (Prometheus exposition format, counter `apiserver_request_total`).
 * kube-apiserver labels the counter by verb, group, resource and scope, never by namespace.
 *
 * @throws {Error} when the text has no `apiserver_request_total` sample at all (not the
 *   metrics of a kube-apiserver, or the caller may not read them).
 */
export function writeRequests(metricsText: string, plural: string): number {
  let seen = false;
  let total = 0;
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    seen = true;
    const close = line.lastIndexOf('}');
    const labels = line.slice(prefix.length, close);
    if (label(labels, 'group') !== '' || label(labels, 'resource') !== plural) continue;
    if (!writeVerbs.has(label(labels, 'verb') ?? '')) continue;
    const value = Number(
      line
        .slice(close + 1)
        .trim()
        .split(' ')[0],
    );
    if (Number.isFinite(value)) total += value;
  }
  if (!seen)
    throw new Error(
      'the metrics hold no apiserver_request_total sample: is this the /metrics of a kube-apiserver, read as a user allowed to?',
    );
  return total;
}
