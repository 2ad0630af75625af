import { describe, expect, it } from 'vitest';
import {
  assignmentAnnotations,
  nextAssignment,
  type RingAssignment,
  readAssignment,
} from './ring-assignment.js';
import { ShardRangeGate } from './shard-range-gate.js';

const stable: RingAssignment = {
  generation: 3,
  members: ['a', 'b'],
  active: 3,
  activeMembers: ['a', 'b'],
};

describe('nextAssignment', () => {
  it('starts at generation 1, active at once, when nobody acknowledged anything', () => {
    expect(nextAssignment(undefined, ['b', 'a'], new Map())).toEqual({
      generation: 1,
      members: ['a', 'b'],
      active: 1,
      activeMembers: ['a', 'b'],
    });
  });

  it('starts after the newest acknowledged generation, with nobody active, when the Lease went missing', () => {
    expect(nextAssignment(undefined, ['a'], new Map([['a', 4]]))).toEqual({
      generation: 5,
      members: ['a'],
      active: 4,
      activeMembers: [],
    });
  });

  it('publishes one change at a time, and activates it once every live replica acknowledged it', () => {
    expect(nextAssignment(stable, ['a', 'b'], new Map())).toBeUndefined();
    const published = nextAssignment(stable, ['a', 'b', 'c'], new Map()) as RingAssignment;
    expect(published).toEqual({ ...stable, generation: 4, members: ['a', 'b', 'c'] });
    // In flight: no new generation whatever the members do, until every live one acknowledged.
    expect(
      nextAssignment(
        published,
        ['a'],
        new Map([
          ['a', 4],
          ['b', 3],
        ]),
      ),
    ).toBeUndefined();
    expect(
      nextAssignment(
        published,
        ['a'],
        new Map([
          ['a', 4],
          ['b', 4],
          ['c', 4],
        ]),
      ),
    ).toEqual({
      ...published,
      active: 4,
      activeMembers: ['a', 'b', 'c'],
    });
  });

  it('round-trips through the Lease annotations and ignores garbage', () => {
    const lease = { metadata: { annotations: assignmentAnnotations(stable) } };
    expect(readAssignment(lease)).toEqual(stable);
    expect(readAssignment(undefined)).toBeUndefined();
    const broken = { ...assignmentAnnotations(stable), 'sharding.ops.dev/active-generation': '9' };
    expect(readAssignment({ metadata: { annotations: broken } })).toBeUndefined();
  });
});

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
});
