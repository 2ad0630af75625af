import { describe, expect, it } from 'vitest';
import { HashRing } from './hash-ring.js';

const keys = Array.from({ length: 6_000 }, (_, i) => `ns-${i % 7}/object-${i}`);

function assignment(ring: HashRing): Map<string, string> {
  return new Map(keys.map((key) => [key, ring.lookup(key) as string]));
}

describe('HashRing', () => {
  it('answers by the set of members, not their order, and nothing when empty', () => {
    const a = new HashRing(['r1', 'r2', 'r3']);
    const b = new HashRing(['r3', 'r1', 'r2', 'r1']);
    expect(a.members).toEqual(['r1', 'r2', 'r3']);
    expect([...assignment(a)]).toEqual([...assignment(b)]);
    expect(new HashRing([]).lookup('x')).toBeUndefined();
    expect(new HashRing([]).isEmpty()).toBe(true);
  });

  it('spreads keys about evenly over the members', () => {
    const counts = new Map<string, number>();
    for (const member of assignment(new HashRing(['r1', 'r2', 'r3'])).values())
      counts.set(member, (counts.get(member) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['r1', 'r2', 'r3']);
    for (const count of counts.values()) {
      expect(count).toBeGreaterThan(keys.length / 3 / 1.35);
      expect(count).toBeLessThan((keys.length / 3) * 1.35);
    }
  });

  it('moves only the keys a joining member takes, and only a leaving member’s keys', () => {
    const three = assignment(new HashRing(['r1', 'r2', 'r3']));
    const four = assignment(new HashRing(['r1', 'r2', 'r3', 'r4']));
    let moved = 0;
    for (const [key, member] of four) {
      if (member !== three.get(key)) {
        moved++;
        expect(member).toBe('r4');
      }
    }
    // About a quarter move to the new member, nothing else.
    expect(moved).toBeGreaterThan(keys.length / 4 / 1.5);
    expect(moved).toBeLessThan((keys.length / 4) * 1.5);
    const two = assignment(new HashRing(['r1', 'r3']));
    for (const [key, member] of three) if (member !== 'r2') expect(two.get(key)).toBe(member);
  });

  it('rejects a bad virtual node count and an empty member', () => {
    expect(() => new HashRing(['a'], 0)).toThrow(/virtualNodes >= 1/);
    expect(() => new HashRing([''])).toThrow(/non-empty name/);
  });
});
