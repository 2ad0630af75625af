import { describe, expect, it } from 'vitest';
import { ShardRangeGate } from './shard-range-gate.js';
import { ShardRanges } from './shard-ranges.js';

describe('ShardRangeGate', () => {
  function gate(identity: string) {
    const selected: string[] = [];
    const g = new ShardRangeGate({
      identity,
      field: 'object.metadata.namespace',
      valueOf: (request) => request.namespace,
      select: (selector) => selected.push(selector),
      retryAfterMs: 100,
    });
    return { g, selected };
  }
  const context = {} as Parameters<Parameters<ShardRangeGate['wrap']>[0]>[1];

  it('reconciles only what it owns in both generations, retries what it gained, drops the rest', async () => {
    const { g, selected } = gate('a');
    const ran: string[] = [];
    const reconcile = g.wrap(async (request) => {
      ran.push(request.namespace);
      return {};
    });
    // Nothing adopted yet: nothing runs.
    expect(await reconcile({ namespace: 'x', name: 'n' }, context)).toEqual({});
    await g.adopt({ generation: 1, members: ['a'], active: 1, activeMembers: ['a'] });
    expect(g.acknowledged).toBe(1);
    await reconcile({ namespace: 'payments', name: 'n' }, context);
    expect(ran).toEqual(['payments']);
    // b joins: what moves to b stops here at once; a keeps the rest.
    await g.adopt({ generation: 2, members: ['a', 'b'], active: 1, activeMembers: ['a'] });
    expect(selected).toHaveLength(2);
    const spaces = ['payments', 'search', 'checkout', 'billing', 'identity', 'catalog'];
    for (const space of spaces) await reconcile({ namespace: space, name: 'n' }, context);
    expect(ran.length).toBeGreaterThan(1);
    expect(ran.length).toBeLessThan(spaces.length + 1);
  });

  it('waits for the activation before reconciling what it gained, trying again meanwhile', async () => {
    const { g } = gate('b');
    const ran: string[] = [];
    const reconcile = g.wrap(async (request) => {
      ran.push(request.namespace);
      return {};
    });
    const spaces = ['payments', 'search', 'checkout', 'billing', 'identity', 'catalog'];
    // b joined in generation 2, still in flight: every namespace b gains waits.
    await g.adopt({ generation: 2, members: ['a', 'b'], active: 1, activeMembers: ['a'] });
    const results = await Promise.all(
      spaces.map((space) => reconcile({ namespace: space, name: 'n' }, context)),
    );
    expect(ran).toEqual([]);
    expect(results.some((result) => result?.requeueAfterMs === 100)).toBe(true);
    await g.adopt({ generation: 2, members: ['a', 'b'], active: 2, activeMembers: ['a', 'b'] });
    for (const space of spaces) await reconcile({ namespace: space, name: 'n' }, context);
    expect(ran.length).toBeGreaterThan(0);
  });

  it('acknowledges a generation only once the reconciles it no longer allows have ended', async () => {
    const { g } = gate('a');
    await g.adopt({ generation: 1, members: ['a'], active: 1, activeMembers: ['a'] });
    let finish: () => void = () => undefined;
    const running = g.wrap(
      () =>
        new Promise((resolve) => {
          finish = () => resolve({});
        }),
    )({ namespace: 'payments', name: 'n' }, context);
    const adopted = g.adopt({ generation: 2, members: ['b'], active: 1, activeMembers: ['a'] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(g.acknowledged).toBe(1);
    finish();
    await running;
    await adopted;
    expect(g.acknowledged).toBe(2);
  });

  it('tells the selector what it owns, and reports each generation once, when acknowledged', async () => {
    const owned: Array<(value: string) => boolean> = [];
    const acknowledged: number[] = [];
    const g = new ShardRangeGate({
      identity: 'a',
      field: 'object.metadata.namespace',
      valueOf: (request) => request.namespace,
      select: (_selector, owns) => owned.push(owns),
      retryAfterMs: 100,
    });
    g.onAcknowledged((generation) => acknowledged.push(generation));
    const spaces = ['payments', 'search', 'checkout', 'billing', 'identity', 'catalog'];
    await g.adopt({ generation: 1, members: ['a'], active: 1, activeMembers: ['a'] });
    expect(spaces.every((space) => owned[0]?.(space))).toBe(true);
    await g.adopt({ generation: 2, members: ['a', 'b'], active: 1, activeMembers: ['a'] });
    // The share of the newest generation: the ring's own answer, some namespaces gone to b.
    const ring = new ShardRanges(['a', 'b']);
    for (const space of spaces) expect(owned[1]?.(space)).toBe(ring.ownerOf(space) === 'a');
    expect(spaces.some((space) => !owned[1]?.(space))).toBe(true);
    // Generation 2 again (now active): adopted, but no new acknowledgement.
    await g.adopt({ generation: 2, members: ['a', 'b'], active: 2, activeMembers: ['a', 'b'] });
    expect(acknowledged).toEqual([1, 2]);
  });
});
