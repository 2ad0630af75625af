import type { KubernetesObject } from '@ops/api';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import { shardNameLabel } from './shard-labels.js';

/** The Lease resource: what the ring's members hold and its sharders watch. */
export const leaseDescriptor: ResourceDescriptor = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
};

/** A shard Lease as the sharder reads it. */
export interface ShardLease extends KubernetesObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    renewTime?: string;
  };
}

/**
 * The state of one member of a ring, judged from its Lease:
 *
 * - `ready`: held by the shard itself and renewed within its lease duration: in the ring;
 * - `expired`: not renewed for one lease duration: out of the ring (it gets no new objects)
 *   but its objects stay, since it may still be reconciling them;
 * - `lapsed`: not renewed for two lease durations: the sharder fences it (takes the Lease)
 *   before moving its objects;
 * - `dead`: released by the shard (empty holder, on graceful stop, after its controllers
 *   stopped) or taken by the sharder: its objects move at once.
 */
export type ShardState = 'ready' | 'expired' | 'lapsed' | 'dead';

/** One member: its name, Lease and state. */
export interface ShardMember {
  shard: string;
  lease: ShardLease;
  state: ShardState;
}

/**
 * The members of a ring from their Leases, with client-go's way of judging expiry: by when
 * this observer last saw the Lease's spec change (on its own monotonic clock), never by the
 * timestamps written in it, so clocks need not agree. A Lease seen for the first time counts
 * as just renewed (a new sharder waits a full lease duration before judging anyone expired).
 */
export class RingMembership {
  private readonly observed = new Map<string, { spec: string; at: number }>();

  /**
   * Notes the Leases now listed (by name) at time `now`; forgets Leases no longer listed.
   * Returns the members, their states judged at `now`.
   */
  update(leases: readonly ShardLease[], now: number): ShardMember[] {
    const seen = new Set<string>();
    const members: ShardMember[] = [];
    for (const lease of leases) {
      const name = lease.metadata?.name;
      const shard = lease.metadata?.labels?.[shardNameLabel];
      if (!name || !shard) continue;
      seen.add(name);
      const spec = JSON.stringify(lease.spec ?? {});
      const previous = this.observed.get(name);
      if (previous === undefined || previous.spec !== spec)
        this.observed.set(name, { spec, at: now });
      const at = (this.observed.get(name) as { at: number }).at;
      members.push({ shard, lease, state: stateOf(shard, lease, now - at) });
    }
    for (const name of this.observed.keys()) if (!seen.has(name)) this.observed.delete(name);
    return members.sort((a, b) => (a.shard < b.shard ? -1 : a.shard > b.shard ? 1 : 0));
  }
}

function stateOf(shard: string, lease: ShardLease, sinceRenewMs: number): ShardState {
  if ((lease.spec?.holderIdentity ?? '') !== shard) return 'dead';
  const durationMs = (lease.spec?.leaseDurationSeconds ?? 0) * 1000;
  if (sinceRenewMs <= durationMs) return 'ready';
  if (sinceRenewMs <= 2 * durationMs) return 'expired';
  return 'lapsed';
}

/**
 * The key an object is hashed by: `namespace/name` (`name` for cluster-scoped objects).
 *
 * Why not the uid: the workqueue, the reconcile `Request` and the "never two replicas at
 * once" guarantee are all keyed by namespace and name. An object deleted and created again
 * under the same name gets a new uid; hashed by uid it could land on another replica while
 * the old incarnation is still being finalized on the first, and two replicas would then
 * reconcile the same request (and write the same-named children) at once. Hashed by name,
 * every incarnation lands on the same replica. The name is also known before the object is
 * created (an admission-time assigner could use it; the uid is not set then).
 */
export function shardingKey(object: KubernetesObject): string {
  const namespace = object.metadata?.namespace;
  const name = object.metadata?.name ?? '';
  return namespace ? `${namespace}/${name}` : name;
}
