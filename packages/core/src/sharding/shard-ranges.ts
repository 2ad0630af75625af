import { createHash } from 'node:crypto';
import { defaultVirtualNodes } from './hash-ring.js';

const fnvOffset = 0xcbf29ce484222325n;
const fnvPrime = 0x100000001b3n;
const mask = (1n << 64n) - 1n;
/** The end of the hash space, 2^64 (exclusive). */
const spaceEnd = 1n << 64n;

/**
 * The 64-bit FNV-1a hash of `value`'s UTF-8 bytes: what kube-apiserver's sharded list and
 * watch (KEP-5866) hash a field by, so a range computed here selects the same objects there.
 */
export function fnv1a64(value: string): bigint {
  let hash = fnvOffset;
  for (const byte of Buffer.from(value, 'utf8')) {
    hash ^= BigInt(byte);
    hash = (hash * fnvPrime) & mask;
  }
  return hash;
}

/**
 * A token's place on the ring: the first 8 bytes of the SHA-256 of its name. Tokens need an
 * even spread whatever their names (FNV-1a of `member#0`, `member#1`... clusters), while the
 * values placed among them are hashed as the API server hashes them, by {@link fnv1a64}.
 */
function tokenAt(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigUInt64BE(0);
}

/** A half-open range `[start, end)` of the 64-bit hash space (`end` at most 2^64). */
export interface HashRange {
  start: bigint;
  end: bigint;
}

/** `0x` and 16 hex digits, or `0x10000000000000000` for 2^64: the form the API server takes. */
export function hexBound(value: bigint): string {
  return value === spaceEnd ? '0x10000000000000000' : `0x${value.toString(16).padStart(16, '0')}`;
}

/**
 * The object field a server-side shard selector hashes. Only these two are accepted by
 * kube-apiserver (1.36+, feature gate `ShardedListAndWatch`).
 */
export type ShardField = 'object.metadata.namespace' | 'object.metadata.uid';

/**
 * A consistent-hash ring over the 64-bit FNV-1a space, for sharding by server-side selectors:
 * each member places `virtualNodes` tokens (at the SHA-256 of `member#i`), and a value belongs
 * to the member of the first token at or after its FNV-1a hash (wrapping around), as {@link HashRing}
 * but in the hash kube-apiserver filters lists and watches by, so that a member's share is a
 * union of ranges the server can select ({@link selectorOf}).
 *
 * Guarantees: the answer depends only on the set of members and the value; adding a member
 * only takes values from others and removing one only gives its values to others.
 */
export class ShardRanges {
  readonly members: readonly string[];
  private readonly tokens: Array<{ at: bigint; member: string }>;

  /** @throws {Error} when `virtualNodes` is not a whole number >= 1 or a member is empty. */
  constructor(members: Iterable<string>, virtualNodes = defaultVirtualNodes) {
    if (!Number.isInteger(virtualNodes) || virtualNodes < 1)
      throw new Error(`a shard ring needs virtualNodes >= 1 (a whole number), got ${virtualNodes}`);
    const unique = [...new Set(members)].sort();
    if (unique.some((member) => member === ''))
      throw new Error('a shard ring member needs a non-empty name');
    this.members = unique;
    this.tokens = unique
      .flatMap((member) =>
        Array.from({ length: virtualNodes }, (_, i) => ({ at: tokenAt(`${member}#${i}`), member })),
      )
      .sort((a, b) =>
        a.at < b.at ? -1 : a.at > b.at ? 1 : a.member < b.member ? -1 : a.member > b.member ? 1 : 0,
      );
  }

  /** The member `value` belongs to, or undefined when the ring is empty. */
  ownerOf(value: string): string | undefined {
    return this.ownerOfHash(fnv1a64(value));
  }

  /** The member a hash belongs to, or undefined when the ring is empty. */
  ownerOfHash(hash: bigint): string | undefined {
    if (this.tokens.length === 0) return undefined;
    let low = 0;
    let high = this.tokens.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.tokens[middle] as { at: bigint }).at < hash) low = middle + 1;
      else high = middle;
    }
    return (this.tokens[low === this.tokens.length ? 0 : low] as { member: string }).member;
  }

  /**
   * The ranges whose hashes belong to `member`, ascending, adjacent ones merged; empty when it
   * is not a member. A token at `t` owns the hashes after the previous token up to `t`.
   */
  rangesOf(member: string): HashRange[] {
    const ranges: HashRange[] = [];
    const add = (start: bigint, end: bigint) => {
      if (start >= end) return;
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last.end === start) last.end = end;
      else ranges.push({ start, end });
    };
    const count = this.tokens.length;
    if (count === 0) return ranges;
    const lastToken = (this.tokens[count - 1] as { at: bigint; member: string }).at;
    const first = this.tokens[0] as { at: bigint; member: string };
    // The first token also owns the wrap-around: hashes after the last token.
    if (first.member === member) add(0n, first.at + 1n);
    for (let i = 1; i < count; i++) {
      const token = this.tokens[i] as { at: bigint; member: string };
      if (token.member === member)
        add((this.tokens[i - 1] as { at: bigint }).at + 1n, token.at + 1n);
    }
    if (first.member === member) add(lastToken + 1n, spaceEnd);
    return ranges;
  }

  /**
   * The server-side shard selector of `member`'s share, hashing `field`: `shardRange(field,
   * start, end)` terms joined by `||`. A member that owns nothing gets the one-hash range
   * `[0, 1)`: the API server takes no empty selector, and whatever that selects is not this
   * member's to reconcile (callers check ownership again with {@link ownerOf}).
   */
  selectorOf(member: string, field: ShardField): string {
    const ranges = this.rangesOf(member);
    const terms = (ranges.length > 0 ? ranges : [{ start: 0n, end: 1n }]).map(
      ({ start, end }) => `shardRange(${field}, '${hexBound(start)}', '${hexBound(end)}')`,
    );
    return terms.join(' || ');
  }
}
