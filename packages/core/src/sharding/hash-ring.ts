import { createHash } from 'node:crypto';

/** Default number of virtual nodes (tokens) each member places on a {@link HashRing}. */
export const defaultVirtualNodes = 100;

/** A 48-bit position on the ring: the first six bytes of the key's SHA-256. */
function position(key: string): number {
  return createHash('sha256').update(key).digest().readUIntBE(0, 6);
}

/**
 * A consistent-hash ring with virtual nodes: each member places `virtualNodes` tokens at
 * pseudo-random positions (the hash of `member#i`), and a key belongs to the member of the
 * first token at or after the key's position (wrapping around).
 *
 * Guarantees: the answer depends only on the set of members and the key (not on the order
 * members were added); adding a member only takes keys from others (about 1/n of them),
 * removing one only gives its keys to others, so a membership change moves as few keys as
 * consistent hashing allows. With 100 virtual nodes per member the shares of three members
 * stay within a few percent of a third each.
 */
export class HashRing {
  private readonly tokens: Array<{ at: number; member: string }>;
  readonly members: readonly string[];

  /**
   * @throws {Error} when `virtualNodes` is not a whole number >= 1 or a member is empty.
   */
  constructor(members: Iterable<string>, virtualNodes = defaultVirtualNodes) {
    if (!Number.isInteger(virtualNodes) || virtualNodes < 1)
      throw new Error(`a hash ring needs virtualNodes >= 1 (a whole number), got ${virtualNodes}`);
    const unique = [...new Set(members)].sort();
    if (unique.some((member) => member === ''))
      throw new Error('a hash ring member needs a non-empty name');
    this.members = unique;
    this.tokens = unique
      .flatMap((member) =>
        Array.from({ length: virtualNodes }, (_, i) => ({
          at: position(`${member}#${i}`),
          member,
        })),
      )
      // Ties (vanishingly rare at 48 bits) are broken by name, so the order never depends on input order.
      .sort((a, b) => a.at - b.at || (a.member < b.member ? -1 : a.member > b.member ? 1 : 0));
  }

  /** Whether the ring has no member. */
  isEmpty(): boolean {
    return this.tokens.length === 0;
  }

  /** The member `key` belongs to, or undefined when the ring is empty. */
  lookup(key: string): string | undefined {
    if (this.tokens.length === 0) return undefined;
    const at = position(key);
    let low = 0;
    let high = this.tokens.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.tokens[middle] as { at: number }).at < at) low = middle + 1;
      else high = middle;
    }
    return (this.tokens[low === this.tokens.length ? 0 : low] as { member: string }).member;
  }
}
