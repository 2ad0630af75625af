import { describe, expect, it } from 'vitest';
import { RingMembership, type ShardLease, shardingKey } from './ring-membership.js';
import {
  checkRingName,
  checkShardIdentity,
  drainLabel,
  shardIdentityFrom,
  shardLabel,
  shardNameLabel,
} from './shard-labels.js';

function lease(shard: string, holder: string, renewTime: string): ShardLease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: `ring-${shard}`, labels: { [shardNameLabel]: shard } },
    spec: { holderIdentity: holder, leaseDurationSeconds: 10, renewTime },
  };
}

describe('RingMembership', () => {
  it('judges expiry by when it saw a lease change, on its own clock', () => {
    const membership = new RingMembership();
    // Each step: the Leases listed (shard, holder, renewTime), when, and the states judged.
    const steps: Array<[Array<[string, string, string]>, number, string[]]> = [
      // First sight counts as a renewal, whatever the Lease says.
      [
        [
          ['b', 'b', 't0'],
          ['a', 'a', 't0'],
        ],
        1_000,
        ['a:ready', 'b:ready'],
      ],
      // a renews at 9 s; b does not.
      [
        [
          ['a', 'a', 't1'],
          ['b', 'b', 't0'],
        ],
        9_000,
        ['a:ready', 'b:ready'],
      ],
      [
        [
          ['a', 'a', 't1'],
          ['b', 'b', 't0'],
        ],
        11_001,
        ['a:ready', 'b:expired'],
      ],
      [
        [
          ['a', 'a', 't1'],
          ['b', 'b', 't0'],
        ],
        21_001,
        ['a:expired', 'b:lapsed'],
      ],
      // Released (empty holder) or fenced (held by someone else): dead at once.
      [
        [
          ['a', '', 't2'],
          ['b', 'sharder/a', 't3'],
        ],
        21_002,
        ['a:dead', 'b:dead'],
      ],
    ];
    for (const [leases, now, expected] of steps) {
      const judged = membership.update(
        leases.map(([shard, holder, renewTime]) => lease(shard, holder, renewTime)),
        now,
      );
      expect(
        judged.map((m) => `${m.shard}:${m.state}`),
        `at ${now} ms`,
      ).toEqual(expected);
    }
    // A Lease without shard label is not a member.
    expect(membership.update([{ metadata: { name: 'x' } }], 0)).toEqual([]);
  });
});

describe('sharding keys, labels and names', () => {
  it('hashes by namespace/name, and names labels by ring', () => {
    expect(shardingKey({ metadata: { namespace: 'n', name: 'a', uid: 'u' } })).toBe('n/a');
    expect(shardingKey({ metadata: { name: 'cluster-wide' } })).toBe('cluster-wide');
    expect(shardLabel('app')).toBe('shard.sharding.ops.dev/app');
    expect(drainLabel('app')).toBe('drain.sharding.ops.dev/app');
  });

  it('rejects ring names and identities that cannot name labels and Leases', () => {
    expect(() => checkRingName('application')).not.toThrow();
    expect(() => checkRingName('Bad_Ring')).toThrow(/sharding ring name "Bad_Ring" is not valid/);
    expect(() => checkRingName('a'.repeat(51))).toThrow(/at most 50/);
    expect(() => checkShardIdentity('operator-6d4f9-x2x7k')).not.toThrow();
    expect(() => checkShardIdentity('host_1234')).toThrow(/shard identity "host_1234"/);
    expect(() => checkShardIdentity('x'.repeat(64))).toThrow(/at most 63/);
  });

  it('makes a valid identity from any host name', () => {
    expect(shardIdentityFrom('My_Host.local', 'ab12')).toBe('my-host.local-ab12');
    const long = shardIdentityFrom(`${'h'.repeat(80)}`, 'ab12');
    expect(long.length).toBeLessThanOrEqual(63);
    expect(() => checkShardIdentity(long)).not.toThrow();
    expect(shardIdentityFrom('___', 'ab12')).toBe('ab12');
  });
});
