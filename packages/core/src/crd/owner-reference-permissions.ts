/**
 * The RBAC an owner reference needs, derived from what the controllers own: on a cluster with
 * kube-apiserver's `OwnerReferencesPermissionEnforcement` admission plugin (OpenShift and many
 * hardened clusters enable it), setting `blockOwnerDeletion: true` on an owner reference
 * requires `update` on the owner's `finalizers` subresource, or the write is refused with 403
 * "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set
 * finalizers on". kubebuilder grants that rule for this reason; here it is derived instead of
 * written by hand.
 */

import { groupOf, type PolicyRule } from '@ops/api';
import { PolicyRuleError } from '../errors/policy-rule-error.js';

/** What {@link ownerReferencePermissions} needs to know of a kind: its group, kind and plural. */
export interface OwnerResource {
  readonly group: string;
  readonly kind: string;
  readonly plural: string;
}

/**
 * One rule per controller that owns something through controller owner references (an
 * `owns()` with `onlyController` true, the default): `update` on `<plural>/finalizers` of
 * its `for()` kind, in that kind's group. Nothing else: a controller that owns nothing, or
 * owns only with `onlyController: false` (plain owner references, which carry no
 * `blockOwnerDeletion`), adds no rule. The rules come in controller order, one per
 * controller (two controllers of one kind give the same rule twice; `mergePolicyRules`
 * merges them).
 *
 * `resources` gives the plural of each `for()` kind (the operator's custom resources,
 * e.g. its manifest module's `customResources`), matched by group and kind; the version
 * does not matter.
 *
 * @throws {PolicyRuleError} naming the controller and kind when a `for()` kind that owns
 * something is not among `resources` (its plural is unknown), and saying how to fix it.
 */
export function ownerReferencePermissions(
  controllers: readonly ControllerKinds[],
  resources: readonly OwnerResource[],
): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const controller of controllers) {
    const owned = controller.owns.filter((entry) => entry.onlyController);
    if (owned.length === 0) continue;
    const group = groupOf(controller.for.apiVersion);
    const resource = resources.find(
      (candidate) => candidate.group === group && candidate.kind === controller.for.kind,
    );
    if (resource === undefined) {
      const known = resources.map((candidate) => `${candidate.kind}.${candidate.group}`);
      throw new PolicyRuleError(
        `controller ${controller.name} reconciles ${controller.for.kind} (${controller.for.apiVersion}) and owns ${owned
          .map((entry) => entry.kind.kind)
          .join(
            ', ',
          )} with controller references, so it needs update on the finalizers of ${controller.for.kind}, but ${controller.for.kind} is not among the custom resources given (${known.length === 0 ? 'none' : known.join(', ')}): list its definition (defineCustomResource) in customResources`,
      );
    }
    rules.push({
      apiGroups: [resource.group],
      resources: [`${resource.plural}/finalizers`],
      verbs: ['update'],
    });
  }
  return rules;
}

/**
 * What a controller reconciles and what it owns, as its builder declared them with `for()`
 * and `owns()`: the facts its RBAC is derived from (see `ownerReferencePermissions` in
 * `@ops/core/crd`). `onlyController` is `owns()`'s option: true (the default) when the
 * controller's objects carry a controller owner reference (`controller: true`,
 * `blockOwnerDeletion: true`, as `setControllerReference` writes it).
 */
export interface ControllerKinds {
  /** The controller's name. */
  name: string;
  /** The reconciled kind, from `for()`. */
  for: KindRef;
  /** The owned kinds, from `owns()`, in call order. */
  owns: Array<{ kind: KindRef; onlyController: boolean }>;
  /**
   * Set when the controller is sharded (`withOptions({ sharding })`): its ring's name. Its
   * replicas then need the ring's Leases and `patch` on its `for()` and owned kinds (see
   * `shardingPermissions`).
   */
  sharding?: { ring: string };
}

/** A kind, by apiVersion and kind (a `defineCustomResource` definition fits too). */
export interface KindRef {
  apiVersion: string;
  kind: string;
}
