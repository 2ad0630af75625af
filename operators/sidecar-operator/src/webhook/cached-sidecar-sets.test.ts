import type { InformerCache } from '@ops/core/cache';
import { describe, expect, it } from 'vitest';
import { sidecarSetResource } from '../api/v1alpha1/sidecar-set.js';
import { CachedSidecarSets } from './cached-sidecar-sets.js';

const logging = { metadata: { name: 'logging' }, spec: {} };

/** A cache holding one informer whose sync the test controls; records what is asked of it. */
function fakeCache(synced: boolean) {
  const asked: string[] = [];
  let waited = 0;
  const informer = {
    hasSynced: () => synced,
    waitForSync: async (timeoutMs: number) => {
      waited = timeoutMs;
      if (!synced) throw new Error('the informer for sidecarsets did not sync');
    },
    list: () => [logging],
  };
  const cache = {
    getInformer: (descriptor: { kind: string }) => {
      asked.push(descriptor.kind);
      return informer;
    },
  } as unknown as Pick<InformerCache, 'getInformer'>;
  return { cache, asked, waited: () => waited };
}

describe('CachedSidecarSets', () => {
  it('lists the SidecarSets of the bound cache, nothing else', async () => {
    const { cache, asked } = fakeCache(true);
    const sidecarSets = new CachedSidecarSets();
    sidecarSets.bind(cache);
    expect(await sidecarSets.list()).toEqual([logging]);
    expect(asked).toEqual([sidecarSetResource.kind]);
  });

  it('waits a bounded time for a cache that has not synced, then fails', async () => {
    const { cache, waited } = fakeCache(false);
    const sidecarSets = new CachedSidecarSets(250);
    sidecarSets.bind(cache);
    await expect(sidecarSets.list()).rejects.toThrow('did not sync');
    expect(waited()).toBe(250);
  });

  it('refuses to answer before it is bound, saying what to do', async () => {
    await expect(new CachedSidecarSets().list()).rejects.toThrow(
      'the SidecarSet cache is not bound: call bind(manager.cache) in the operator setup',
    );
  });
});
