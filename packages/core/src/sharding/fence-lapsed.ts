import type { Logger } from 'pino';
import { isConflict, isNotFound } from '../client/api-error-helpers.js';
import type { Client } from '../client/client.js';
import { microTime } from '../leader-election/leader-election.js';
import type { ShardMember } from './ring-membership.js';

/**
 * Fences the Leases of `lapsed` shards (not renewed for two lease durations): each is taken
 * by `holder` (the sharder), conditionally on the resourceVersion it was judged by, so a shard
 * that renewed meanwhile is not fenced. A fenced shard is `dead`: its objects may move. A
 * shard that cannot renew stops reconciling after its renew deadline, well before.
 */
export async function fenceLapsed(
  members: readonly ShardMember[],
  client: Pick<Client, 'update'>,
  holder: string,
  log: Logger,
  signal: AbortSignal,
): Promise<void> {
  for (const member of members) {
    if (member.state !== 'lapsed') continue;
    if (signal.aborted) return;
    const lease = member.lease;
    try {
      await client.update({
        ...lease,
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        spec: { ...lease.spec, holderIdentity: holder, renewTime: microTime(Date.now()) },
      });
      log.warn(
        { shard: member.shard },
        'shard lease lapsed (not renewed for two lease durations); fenced it, its objects move',
      );
    } catch (error) {
      // A conflict: the shard renewed after all (or another sharder fenced it).
      log.info({ shard: member.shard, err: error }, 'could not fence the shard lease');
    }
  }
}

/**
 * Deletes the Leases of the `dead` members that `keep` does not keep, each conditionally on
 * the resourceVersion it was judged by (a shard that came back meanwhile keeps its Lease).
 */
export async function deleteDeadLeases(
  members: readonly ShardMember[],
  keep: (shard: string) => boolean,
  client: Pick<Client, 'delete'>,
  leaseNamespace: string,
  log: Logger,
): Promise<void> {
  for (const member of members) {
    if (member.state !== 'dead' || keep(member.shard)) continue;
    try {
      await client.delete(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: member.lease.metadata?.name ?? '', namespace: leaseNamespace },
        },
        { preconditions: { resourceVersion: member.lease.metadata?.resourceVersion ?? '' } },
      );
      log.info({ shard: member.shard }, 'deleted the lease of a dead shard that owns nothing');
    } catch (error) {
      if (!isNotFound(error) && !isConflict(error))
        log.info({ err: error }, 'could not delete a dead shard lease');
    }
  }
}
