import { describe, expect, it } from 'vitest';
import { ObjectStore, TooOldResourceVersionError } from './object-store.js';

const write = (store: ObjectStore, resource: string, name: string) => {
  const revision = store.nextRevision();
  return store.update(
    resource,
    name,
    { metadata: { name, resourceVersion: String(revision) } },
    revision,
  );
};

describe('ObjectStore history', () => {
  it('keeps every event from revision 0 until compacted', () => {
    const store = new ObjectStore();
    write(store, 'configmaps', 'a');
    write(store, 'configmaps', 'b');
    expect(store.eventsSince('configmaps', 0).map((e) => e.current.key)).toEqual(['a', 'b']);
  });

  it('compacts like etcd: older reads fail as too old, objects stay, later resources start there', () => {
    const store = new ObjectStore();
    write(store, 'configmaps', 'a');
    write(store, 'configmaps', 'b');
    store.compact(store.currentRevision());
    expect(store.compactedRevision()).toBe(2);
    expect(() => store.eventsSince('configmaps', 1)).toThrow(TooOldResourceVersionError);
    expect(() => store.eventsSince('configmaps', 1)).toThrow('too old resource version: 1 (3)');
    expect(store.eventsSince('configmaps', 2)).toEqual([]);
    expect(store.list('configmaps').map((s) => s.key)).toEqual(['a', 'b']);
    // A resource first written after the compaction cannot replay from before it either.
    write(store, 'secrets', 's');
    expect(() => store.eventsSince('secrets', 1)).toThrow(TooOldResourceVersionError);
    expect(store.eventsSince('secrets', 2).map((e) => e.current.key)).toEqual(['s']);
    // An older compaction changes nothing.
    store.compact(1);
    expect(store.compactedRevision()).toBe(2);
  });

  it('waits for a revision it has not reached, or reports that it did not come', async () => {
    const store = new ObjectStore();
    await expect(store.waitForRevision(0, 10)).resolves.toBe(true);
    const waiting = store.waitForRevision(2, 1_000);
    write(store, 'configmaps', 'a');
    write(store, 'configmaps', 'b');
    await expect(waiting).resolves.toBe(true);
    await expect(store.waitForRevision(3, 20)).resolves.toBe(false);
  });
});
