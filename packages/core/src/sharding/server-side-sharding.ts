import type { Logger } from 'pino';
import { type ResourceDescriptor, resourcePath } from '../kinds/resource-descriptor.js';
import type { KubeTransport } from '../transport/kube-transport.js';
import { hexBound } from './shard-ranges.js';

/**
 * Whether the API server filters lists and watches of `descriptor` by a server-side shard
 * selector (KEP-5866: kube-apiserver 1.36+ with the `ShardedListAndWatch` feature gate on).
 * Asks for one object with a selector of the whole hash space: a server that applies it echoes
 * it in the list's `metadata.shardInfo`; one that does not know it (an older release, the gate
 * off, another server) ignores the parameter and answers without. kube-apiserver 1.37 filters
 * custom resources' lists and watches too but echoes nothing for them (their unstructured list
 * type has no field for it), so when the kind's own list says nothing, the same question goes
 * to a built-in kind the replica reads anyway, `fallback` (the ring's Leases): the feature is
 * the server's, on for every kind its generic store serves or for none. Any failure counts as
 * no (logged): sharding then falls back to labels, which every server supports.
 */
export async function serverShardsWatches(
  transport: Pick<KubeTransport, 'request'>,
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  log: Logger,
  fallback?: { descriptor: ResourceDescriptor; namespace: string },
): Promise<boolean> {
  if (await echoesShardSelector(transport, descriptor, namespace, log)) return true;
  if (fallback === undefined) return false;
  return echoesShardSelector(transport, fallback.descriptor, fallback.namespace, log);
}

async function echoesShardSelector(
  transport: Pick<KubeTransport, 'request'>,
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  log: Logger,
): Promise<boolean> {
  const selector = `shardRange(object.metadata.namespace, '${hexBound(0n)}', '${hexBound(1n << 64n)}')`;
  try {
    const answer = await transport.request({
      method: 'GET',
      path: resourcePath(descriptor, namespace),
      query: { limit: 1, shardSelector: selector },
      timeoutMs: 30_000,
    });
    if (answer.status !== 200) {
      log.warn(
        { status: answer.status, body: answer.text.slice(0, 300) },
        'could not tell whether the API server shards watches; sharding by labels',
      );
      return false;
    }
    const list = JSON.parse(answer.text) as { metadata?: { shardInfo?: { selector?: string } } };
    return typeof list.metadata?.shardInfo?.selector === 'string';
  } catch (error) {
    log.warn(
      { err: error },
      'could not tell whether the API server shards watches; sharding by labels',
    );
    return false;
  }
}
