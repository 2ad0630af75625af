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

  it('reads a range at an earlier revision from a trimmed history (events dropped from its front)', () => {
    const store = new ObjectStore({ historySize: 3 });
    write(store, 'configmaps', 'a');
    write(store, 'configmaps', 'b');
    const before = write(store, 'configmaps', 'c').resourceVersion;
    write(store, 'configmaps', 'a');
    write(store, 'configmaps', 'd');
    // History keeps the last 3 events (c, a, d): the read at `before` undoes a and d.
    const range = store.range('configmaps', {}, before);
    expect([...range].map((s) => `${s.key}@${s.resourceVersion}`)).toEqual(['a@1', 'b@2', 'c@3']);
    expect(range.size()).toBe(3);
    expect(() => store.range('configmaps', {}, 1)).toThrow(TooOldResourceVersionError);
  });

  it('serves the same bytes as its JSON, whichever is asked for first', () => {
    const store = new ObjectStore();
    const listed = write(store, 'configmaps', 'a');
    const watched = write(store, 'configmaps', 'b');
    expect(listed.bytes().toString()).toBe(JSON.stringify(listed.object));
    expect(listed.json()).toBe(listed.bytes().toString());
    expect(watched.json()).toBe(JSON.stringify(watched.object));
    expect(watched.bytes().toString()).toBe(watched.json());
  });
});
