import { describe, expect, it } from 'vitest';
import { fnv1a64, hexBound, ShardRanges } from './shard-ranges.js';

describe('fnv1a64', () => {
  it('is the 64-bit FNV-1a of the UTF-8 bytes (Go hash/fnv New64a)', () => {
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
    expect(fnv1a64('a')).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64('foobar')).toBe(0x85944171f73967e8n);
    // Multi-byte characters hash by their UTF-8 bytes, not UTF-16 units.
    expect(fnv1a64('é')).not.toBe(fnv1a64('\u00e9'.normalize('NFD')));
  });
});

describe('hexBound', () => {
  it('writes 16 hex digits, and 2^64 as the API server spells it', () => {
    expect(hexBound(0n)).toBe('0x0000000000000000');
    expect(hexBound(0xabcn)).toBe('0x0000000000000abc');
    expect(hexBound(1n << 64n)).toBe('0x10000000000000000');
  });
});

describe('ShardRanges', () => {
  const members = ['replica-a', 'replica-b', 'replica-c'];
  const ring = new ShardRanges(members);

  it("splits the hash space into the members' ranges, with no gap and no overlap", () => {
    const all = members
      .flatMap((member) => ring.rangesOf(member).map((range) => ({ ...range, member })))
      .sort((a, b) => (a.start < b.start ? -1 : 1));
    expect(all[0]?.start).toBe(0n);
    expect(all[all.length - 1]?.end).toBe(1n << 64n);
    for (let i = 1; i < all.length; i++) expect(all[i]?.start).toBe(all[i - 1]?.end);
    // Each range's ends belong to its member: ranges and lookups agree.
    for (const { start, end, member } of all) {
      expect(ring.ownerOfHash(start)).toBe(member);
      expect(ring.ownerOfHash(end - 1n)).toBe(member);
    }
  });

  it('shares values about evenly and moves only what a membership change must', () => {
    const values = Array.from({ length: 3000 }, (_, i) => `namespace-${i}`);
    const counts = new Map<string, number>();
    for (const value of values) {
      const owner = ring.ownerOf(value) as string;
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    for (const member of members) expect(counts.get(member)).toBeGreaterThan(700);
    const grown = new ShardRanges([...members, 'replica-d']);
    for (const value of values) {
      const after = grown.ownerOf(value);
      if (after !== 'replica-d') expect(after).toBe(ring.ownerOf(value));
    }
  });

  it('writes a selector per member that the API server parses, and one for a non-member', () => {
    const selector = ring.selectorOf('replica-a', 'object.metadata.namespace');
    expect(selector).toMatch(
      /^shardRange\(object\.metadata\.namespace, '0x[0-9a-f]{16}', '0x[0-9a-f]{16,17}'\)( \|\| shardRange\(object\.metadata\.namespace, '0x[0-9a-f]{16}', '0x[0-9a-f]{16,17}'\))*$/,
    );
    expect(ring.selectorOf('stranger', 'object.metadata.uid')).toBe(
      "shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')",
    );
    expect(new ShardRanges(['only']).selectorOf('only', 'object.metadata.namespace')).toBe(
      "shardRange(object.metadata.namespace, '0x0000000000000000', '0x10000000000000000')",
    );
  });

  it('does not depend on the order members are given in, and refuses bad input', () => {
    const reversed = new ShardRanges([...members].reverse());
    expect(reversed.rangesOf('replica-b')).toEqual(ring.rangesOf('replica-b'));
    expect(new ShardRanges([]).ownerOf('x')).toBeUndefined();
    expect(() => new ShardRanges(['a'], 0)).toThrow(/virtualNodes >= 1/);
    expect(() => new ShardRanges([''])).toThrow(/non-empty/);
  });
});
