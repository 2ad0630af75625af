/**
 * The RBAC a sharded controller needs (see the README's "Sharding"), derived from what the
 * controllers report: each replica holds a Lease in the ring and watches the others' (the
 * sharder creates, fences and deletes them), and the sharder labels the objects of the
 * controller's `for()` and owned kinds, as the owners remove the labels when they drain.
 */

import { groupOf, type PolicyRule } from '@ops/api';
import { PolicyRuleError } from '../errors/policy-rule-error.js';
import type { ControllerKinds, KindRef, OwnerResource } from './owner-reference-permissions.js';

/** What {@link shardingPermissions} grants, split by where it is granted. */
export interface ShardingPermissions {
  /**
   * Cluster-wide: `patch` on the `for()` kind and every owned kind of each sharded
   * controller (the shard and drain labels), one rule per kind, in controller order.
   */
  clusterRules: PolicyRule[];
  /**
   * In the Leases' namespace only (`leaderElectionNamespace`, the operator's own): the
   * ring's Leases, `get`, `list`, `watch`, `create`, `update`, `patch` and `delete`. Empty
   * when no controller is sharded. A namespaced Role, not the ClusterRole: a cluster-wide
   * right to update Leases would let the operator take over any component's leader
   * election.
   */
  leaseRules: PolicyRule[];
}

/** The verbs of the ring's Leases: membership, the sharder's fencing and cleanup. */
export const shardLeaseVerbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * The permissions of the sharded controllers among `controllers` (those with `sharding`);
 * unsharded controllers add nothing. The plural of each kind comes from `resources`, matched
 * by group and kind whatever the version: the operator's custom resources and the built-in
 * kinds it owns (`builtInKindResources` of `@ops/core/client` lists `@ops/core`'s).
 *
 * @throws {PolicyRuleError} naming the controller and kind when a kind's plural is not
 * among `resources`, and saying how to fix it.
 */
export function shardingPermissions(
  controllers: readonly ControllerKinds[],
  resources: readonly OwnerResource[],
): ShardingPermissions {
  const clusterRules: PolicyRule[] = [];
  let sharded = false;
  for (const controller of controllers) {
    if (controller.sharding === undefined) continue;
    sharded = true;
    for (const kind of [controller.for, ...controller.owns.map((entry) => entry.kind)]) {
      const group = groupOf(kind.apiVersion);
      clusterRules.push({
        apiGroups: [group],
        resources: [pluralOf(kind, group, resources, controller)],
        verbs: ['patch'],
      });
    }
  }
  return {
    clusterRules,
    leaseRules: sharded
      ? [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: [...shardLeaseVerbs] }]
      : [],
  };
}

function pluralOf(
  kind: KindRef,
  group: string,
  resources: readonly OwnerResource[],
  controller: ControllerKinds,
): string {
  const known = resources.find(
    (candidate) => candidate.group === group && candidate.kind === kind.kind,
  );
  if (known !== undefined) return known.plural;
  throw new PolicyRuleError(
    `controller ${controller.name} is sharded (ring ${controller.sharding?.ring}), so its replicas need patch on ${kind.kind} (${kind.apiVersion}), but its plural is unknown: ${kind.kind} is not among the resources given (the custom resources and @ops/core's built-in kinds); list its definition (defineCustomResource) in customResources`,
  );
}
