import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { OwnWrites } from './own-writes.js';
import type { ResourceVersionOrder } from './resource-version-order.js';

const kind = 'v1\nConfigMap';
const key = 'ns/a';
const at = (resourceVersion: string): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'ns', name: 'a', resourceVersion },
});

function setup(order: ResourceVersionOrder) {
  const clock = new FakeClock();
  const writes = new OwnWrites({ clock, timeoutMs: 1000, detectOrder: async () => order });
  const cache = new Map<string, KubernetesObject>();
  const lookup = (objectKey: string) => cache.get(objectKey);
  /** The informer stores `object` and tells `writes`, as InformerCache's handler does. */
  const apply = (object: KubernetesObject) => {
    cache.set(key, object);
    writes.observe(kind, key, object, false);
  };
  const remove = (object: KubernetesObject) => {
    cache.delete(key);
    writes.observe(kind, key, object, true);
  };
  return { clock, writes, cache, lookup, apply, remove };
}

/** Whether the promise has settled, after pending callbacks ran. */
async function settled(promise: Promise<boolean>): Promise<boolean | 'pending'> {
  return Promise.race([promise, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 5))]);
}

describe('OwnWrites', () => {
  it('makes a read wait until the cache holds the written resourceVersion', async () => {
    const { writes, cache, lookup, apply } = setup('exact');
    cache.set(key, at('5'));
    writes.record(kind, key, '6', false, 'c', at('5'));
    const read = writes.awaitSeen(kind, { objectKey: key }, lookup);
    expect(await settled(read)).toBe('pending');
    apply(at('6'));
    expect(await read).toBe(true);
    expect(writes.hasPending(kind)).toBe(false);
  });

  it('answers at once when the cache already shows the write, or nothing is pending', async () => {
    const { writes, lookup } = setup('exact');
    expect(await writes.awaitSeen(kind, { objectKey: key }, lookup)).toBe(true);
    writes.record(kind, key, '6', false, 'c', at('6'));
    expect(writes.hasPending(kind)).toBe(false);
  });

  it('with exact resourceVersions, a newer version does not show the write; with comparable ones it does', async () => {
    const exact = setup('exact');
    exact.writes.record(kind, key, '6', false, 'c', at('5'));
    const exactRead = exact.writes.awaitSeen(kind, { objectKey: key }, exact.lookup);
    exact.apply(at('7'));
    expect(await settled(exactRead)).toBe('pending');

    const comparable = setup('comparable');
    comparable.writes.record(kind, key, '6', false, 'c', at('5'));
    const read = comparable.writes.awaitSeen(kind, { objectKey: key }, comparable.lookup);
    comparable.apply(at('7'));
    expect(await read).toBe(true);
  });

  it('gives up after the timeout (the client then reads from the server) and forgets the write', async () => {
    const { writes, clock, lookup } = setup('exact');
    writes.record(kind, key, '6', false, 'c', at('5'));
    const read = writes.awaitSeen(kind, { objectKey: key }, lookup);
    await settled(read);
    clock.advance(1000);
    expect(await read).toBe(false);
    expect(writes.hasPending(kind)).toBe(false);
  });

  it('shows a delete once the object is gone, but not a create by an older delete', async () => {
    const { writes, lookup, cache, apply, remove } = setup('comparable');
    cache.set(key, at('5'));
    writes.record(kind, key, '6', true, 'c', at('5'));
    const deleted = writes.awaitSeen(kind, { prefix: 'ns/' }, lookup);
    remove(at('6'));
    expect(await deleted).toBe(true);

    // Delete then create again: the old object's DELETED event does not show the create.
    cache.set(key, at('7'));
    writes.record(kind, key, '8', true, 'c', at('7'));
    writes.record(kind, key, '9', false, 'c', at('7'));
    const created = writes.awaitSeen(kind, { objectKey: key }, lookup);
    remove(at('8'));
    expect(await settled(created)).toBe('pending');
    apply(at('9'));
    expect(await created).toBe(true);
  });

  it("tells the writer's own event while its handlers run, and only the writer's", async () => {
    const { writes, apply } = setup('exact');
    writes.record(kind, key, '6', false, 'mine', at('5'));
    expect(writes.isOwnEvent('mine', kind, key, at('5'))).toBe(false);
    apply(at('6'));
    expect(writes.isOwnEvent('mine', kind, key, at('6'))).toBe(true);
    expect(writes.isOwnEvent('other', kind, key, at('6'))).toBe(false);
    await Promise.resolve();
    expect(writes.isOwnEvent('mine', kind, key, at('6'))).toBe(false);
  });

  it('lets a later write of the object replace an earlier one, keeping its waiters', async () => {
    const { writes, lookup, apply } = setup('exact');
    writes.record(kind, key, '6', false, 'c', at('5'));
    const read = writes.awaitSeen(kind, { objectKey: key }, lookup);
    await settled(read);
    writes.record(kind, key, '7', false, 'c', at('5'));
    apply(at('6'));
    expect(await settled(read)).toBe('pending');
    apply(at('7'));
    expect(await read).toBe(true);
  });

  it("lets an event that comes before its write's answer wait for that answer", async () => {
    const { writes } = setup('exact');
    expect(writes.answerOfSentWrites('mine', kind, key)).toBeUndefined();
    const answered = writes.begin(kind, key, 'mine');
    const failed = writes.begin(kind, key, 'mine');
    expect(writes.answerOfSentWrites('other', kind, key)).toBeUndefined();
    const versions = writes.answerOfSentWrites('mine', kind, key);
    answered('6');
    failed();
    expect(await versions).toEqual(['6', undefined]);
    expect(writes.answerOfSentWrites('mine', kind, key)).toBeUndefined();
  });
});
