import { describe, expect, it } from 'vitest';
import {
  assignmentAnnotations,
  nextAssignment,
  type RingAssignment,
  readAssignment,
} from './ring-assignment.js';

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
