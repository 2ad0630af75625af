import type { DeleteOptions, KubernetesObject } from '@ops/api';
import { StatusError } from '../api/status-error.js';
import type { AuthenticatedUser } from '../auth/index.js';
import type { ResourceRegistry } from '../registry/resource-registry.js';
import { objectKey, type ResourceType } from '../registry/resource-type.js';
import type { ObjectStore } from '../store/object-store.js';
import { ClusterIndex } from './cluster-index.js';
import type { LabelMap } from './resource-index.js';

/** Who a write is made as: the user, without the request's other options. */
export interface ClusterWriteContext {
  user: AuthenticatedUser;
}

/**
 * The writes the simulated cluster makes, as the server's resource service takes them (with
 * admission and validation, as any client's): the narrow part of it this folder uses.
 */
export interface ClusterWrites {
  create(
    type: ResourceType,
    namespace: string,
    body: unknown,
    context: ClusterWriteContext,
  ): Promise<KubernetesObject>;
  update(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    subresource: string,
    context: ClusterWriteContext,
  ): Promise<KubernetesObject>;
  delete(
    type: ResourceType,
    namespace: string,
    name: string,
    options: DeleteOptions,
    context: ClusterWriteContext,
  ): Promise<KubernetesObject>;
  /** The server's write hooks: the kubelet takes over graceful Pod deletes. */
  readonly hooks: { deleteGracefully?: DeleteGracefully | undefined };
}

/**
 * Decides whether a delete of `object` is graceful: a grace period in seconds (the kubelet then
 * removes it), or undefined to delete at once. The server calls it before its default handling.
 */
export type DeleteGracefully = (
  type: ResourceType,
  object: KubernetesObject,
  options: DeleteOptions,
) => number | undefined;

/** What the simulated cluster needs of the API server: an `ApiServer` is one. */
export interface ClusterHost {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly resources: ClusterWrites;
}

/** The users the simulated components write as. */
export const clusterUsers = {
  controllerManager: { name: 'system:kube-controller-manager', groups: ['system:masters'] },
  scheduler: { name: 'system:kube-scheduler', groups: ['system:masters'] },
  kubelet: (node: string): AuthenticatedUser => ({
    name: `system:node:${node}`,
    groups: ['system:nodes', 'system:masters'],
  }),
} as const;

/**
 * A controller's access to the server. Reads come straight from the store (namespaced ones
 * through `index`, which the simulated cluster shares between its clients and keeps up to
 * date; by default one that scans the store on each read) and return the stored objects
 * themselves: callers must not mutate them (clone first). Writes go through
 * {@link ClusterWrites} as `user`, so admission and validation apply as to any client.
 */
export class ControllerClient {
  constructor(
    private readonly host: ClusterHost,
    readonly user: AuthenticatedUser,
    private readonly index: ClusterIndex = new ClusterIndex(host.store),
  ) {}

  /**
   * The served type of `group/plural` (any version).
   *
   * @throws {Error} when the server does not serve it (a built-in always is).
   */
  type(group: string, plural: string): ResourceType {
    const type = this.host.registry.findAnyVersion(group, plural);
    if (type === undefined)
      throw new Error(`the server does not serve ${plural}${group ? `.${group}` : ''}`);
    return type;
  }

  /** The stored object, or undefined. Do not mutate it. */
  get(
    group: string,
    plural: string,
    namespace: string,
    name: string,
  ): KubernetesObject | undefined {
    return this.host.store.get(`${group}/${plural}`, objectKey(namespace || undefined, name))
      ?.object;
  }

  /**
   * The stored objects of a resource, in one namespace when given (`` or undefined: all), in
   * key order. Do not mutate them.
   */
  list(group: string, plural: string, namespace?: string): KubernetesObject[] {
    if (namespace) return this.index.of(`${group}/${plural}`).inNamespace(namespace);
    return this.host.store.list(`${group}/${plural}`).map((stored) => stored.object);
  }

  /**
   * The stored objects of a namespace whose labels include every pair of `selector`, in key
   * order. Do not mutate them.
   */
  listSelected(
    group: string,
    plural: string,
    namespace: string,
    selector: LabelMap,
  ): KubernetesObject[] {
    return this.index.of(`${group}/${plural}`).withLabels(namespace, selector);
  }

  /**
   * The stored objects of a namespace whose controller (`ownerReferences[]` with
   * `controller: true`, of any kind) has `uid`, in key order. Do not mutate them.
   */
  listControlledBy(
    group: string,
    plural: string,
    namespace: string,
    uid: string,
  ): KubernetesObject[] {
    return this.index.of(`${group}/${plural}`).controlledBy(namespace, uid);
  }

  /**
   * The stored objects of a namespace with a non-empty map `spec.selector` (Services) that
   * `labels` satisfy, in key order. Do not mutate them.
   */
  listSelecting(
    group: string,
    plural: string,
    namespace: string,
    labels: LabelMap | undefined,
  ): KubernetesObject[] {
    return this.index.of(`${group}/${plural}`).selecting(namespace, labels);
  }

  /** Creates an object. Throws the server's StatusError (409 AlreadyExists, 422 Invalid, webhook denials). */
  create(
    group: string,
    plural: string,
    namespace: string,
    body: KubernetesObject,
  ): Promise<KubernetesObject> {
    return this.host.resources.create(this.type(group, plural), namespace, body, {
      user: this.user,
    });
  }

  /**
   * Replaces an object (or a subresource of it). Bodies carry the resourceVersion they were
   * computed from, so a concurrent change is a 409 Conflict, which the reconcile loop retries.
   */
  update(
    group: string,
    plural: string,
    object: KubernetesObject,
    subresource = '',
  ): Promise<KubernetesObject> {
    const meta = object.metadata ?? {};
    return this.host.resources.update(
      this.type(group, plural),
      meta.namespace ?? '',
      meta.name ?? '',
      object,
      subresource,
      {
        user: this.user,
      },
    );
  }

  /** Deletes an object; false when it was already gone. */
  async delete(
    group: string,
    plural: string,
    namespace: string,
    name: string,
    options: DeleteOptions = {},
  ): Promise<boolean> {
    try {
      await this.host.resources.delete(this.type(group, plural), namespace, name, options, {
        user: this.user,
      });
      return true;
    } catch (error) {
      if (StatusError.isInstance(error) && error.code === 404) return false;
      throw error;
    }
  }
}

/** Whether an error is the server's 404 NotFound. */
export function isNotFound(error: unknown): boolean {
  return StatusError.isInstance(error) && error.code === 404;
}

/** Whether an error is the server's 409 (Conflict or AlreadyExists). */
export function isConflict(error: unknown): boolean {
  return StatusError.isInstance(error) && error.code === 409;
}
