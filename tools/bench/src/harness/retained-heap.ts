import type { ServerEndpoint } from './bench-server.js';
import type { CacheVariant } from './cache-variants.js';
import { settledHeapUsed } from './gc.js';
import { addSample } from './stats.js';
import { sleep } from './wait.js';

/**
 * Retained heap per cached object of each variant over `namespace` (which holds `objects`
 * objects): V8's used heap after full collections with the cache synced, settled and
 * referenced, minus the same just before it was created, over `objects`. One warm-up run
 * of each (code compiled, module caches filled), then `repeats` rounds, the order
 * alternating between rounds. Returns the samples by variant id, in bytes per object.
 *
 * @throws {Error} when a variant does not hold every object.
 */
export async function retainedHeapSamples(
  variants: readonly CacheVariant[],
  server: ServerEndpoint,
  namespace: string,
  objects: number,
  repeats: number,
  log: (message: string) => void,
): Promise<Record<string, number[]>> {
  const measure = async (variant: CacheVariant): Promise<number> => {
    // Let closed sockets and timers of the previous run be released first.
    await sleep(100);
    const before = settledHeapUsed();
    const cache = await variant.sync(server, namespace, objects);
    // Steady state: the retained heap once any post-sync work of the cache has finished.
    await cache.settle?.();
    const after = settledHeapUsed();
    const held = cache.objects();
    await cache.stop();
    if (held !== objects) throw new Error(`${variant.label} held ${held} of ${objects} objects`);
    return (after - before) / objects;
  };
  for (const variant of variants) await measure(variant);
  const samples: Record<string, number[]> = {};
  for (let round = 0; round < repeats; round++) {
    const order = round % 2 === 0 ? variants : [...variants].reverse();
    for (const variant of order) addSample(samples, variant.id, await measure(variant));
    log(`round ${round + 1}/${repeats} done`);
  }
  return samples;
}
