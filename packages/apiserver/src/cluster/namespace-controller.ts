import type { KubernetesObject } from '@ops/api';
import {
  type BuiltInConditionInput,
  formatRfc3339Seconds,
  jsonEqual,
  setBuiltInCondition,
} from '@ops/api';
import { objectsOf } from '../json/json.js';
import { storageKeyOf } from '../registry/resource-type.js';
import type { StoreEvent } from '../store/object-store.js';
import type { Controller } from './controller.js';
import type { ClusterHost, ControllerClient } from './controller-client.js';
import { specOf, statusOf } from './object-fields.js';
import type { ReconcileResult } from './reconcile-loop.js';

/** The spec finalizer the namespace controller owns. */
export const kubernetesFinalizer = 'kubernetes';

/**
 * The namespace controller of kube-controller-manager. A Namespace with a deletionTimestamp
 * (phase Terminating) gets every namespaced object in it deleted, of every namespaced
 * resource the registry serves (custom resources too), in the background; once none is left
 * it gets its status conditions set (content and finalizers gone) and its `kubernetes` spec
 * finalizer removed through the `finalize` subresource, after which the server removes it
 * (when no metadata finalizers remain). Keys are namespace names.
 *
 * Status conditions are written only once the namespace is empty (kube also writes them
 * while content remains): the server removes a deleted object on any write once its
 * `metadata.finalizers` are empty, without looking at a namespace's `spec.finalizers`, so an
 * earlier status write would remove the namespace before its content.
 */
export class NamespaceController implements Controller {
  readonly name = 'namespace';

  constructor(
    private readonly host: ClusterHost,
    private readonly client: ControllerClient,
  ) {}

  initialKeys(): string[] {
    return this.client
      .list('', 'namespaces')
      .filter((ns) => ns.metadata?.deletionTimestamp !== undefined)
      .map((ns) => ns.metadata?.name ?? '');
  }

  keysFor(resource: string, event: StoreEvent): string[] {
    const object = event.current.object;
    if (resource === '/namespaces')
      return event.type === 'DELETED' || object.metadata?.deletionTimestamp === undefined
        ? []
        : [object.metadata.name ?? ''];
    // A CRD's objects vanish with it, without events of their own.
    if (resource === 'apiextensions.k8s.io/customresourcedefinitions' && event.type === 'DELETED')
      return this.initialKeys();
    // Content leaving a terminating namespace may let it finish.
    const namespace = object.metadata?.namespace;
    if (event.type !== 'DELETED' || !namespace) return [];
    return this.client.get('', 'namespaces', '', namespace)?.metadata?.deletionTimestamp ===
      undefined
      ? []
      : [namespace];
  }

  async reconcile(name: string): Promise<ReconcileResult | undefined> {
    const namespace = this.client.get('', 'namespaces', '', name);
    if (namespace?.metadata?.deletionTimestamp === undefined) return undefined;
    // Content left is waited for: its removal (or its CRD's) queues the namespace again.
    if ((await this.deleteContent(name)) > 0) return undefined;
    await this.finalize(namespace);
    return undefined;
  }

  /** Deletes what is left in the namespace; returns how many objects still exist. */
  private async deleteContent(namespace: string): Promise<number> {
    let remaining = 0;
    const seen = new Set<string>();
    for (const type of this.host.registry.all()) {
      const storageKey = storageKeyOf(type);
      if (!type.namespaced || seen.has(storageKey)) continue;
      seen.add(storageKey);
      for (const object of this.client.list(type.group, type.plural, namespace)) {
        remaining++;
        if (object.metadata?.deletionTimestamp !== undefined) continue;
        await this.client.delete(type.group, type.plural, namespace, object.metadata?.name ?? '', {
          propagationPolicy: 'Background',
          preconditions: { uid: object.metadata?.uid ?? '' },
        });
      }
    }
    return remaining;
  }

  private async finalize(namespace: KubernetesObject): Promise<void> {
    const now = formatRfc3339Seconds(new Date());
    const finalizersLeft = namespace.metadata?.finalizers ?? [];
    const conditions: BuiltInConditionInput[] = [
      {
        type: 'NamespaceDeletionDiscoveryFailure',
        status: 'False',
        reason: 'ResourcesDiscovered',
        message: 'All resources successfully discovered',
      },
      {
        type: 'NamespaceDeletionGroupVersionParsingFailure',
        status: 'False',
        reason: 'ParsedGroupVersions',
        message: 'All legacy kube types successfully parsed',
      },
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        reason: 'ContentDeleted',
        message: 'All content successfully deleted, may be waiting on finalization',
      },
      {
        type: 'NamespaceContentRemaining',
        status: 'False',
        reason: 'ContentRemoved',
        message: 'All content successfully removed',
      },
      finalizersLeft.length > 0
        ? {
            type: 'NamespaceFinalizersRemaining',
            status: 'True',
            reason: 'SomeFinalizersRemain',
            message: `Some content in the namespace has finalizers remaining: ${finalizersLeft.join(', ')}`,
          }
        : {
            type: 'NamespaceFinalizersRemaining',
            status: 'False',
            reason: 'ContentHasNoFinalizers',
            message: 'All content-preserving finalizers finished',
          },
    ];
    let list = objectsOf(statusOf(namespace).conditions);
    for (const condition of conditions) list = setBuiltInCondition(list, condition, { now });
    const withStatus = structuredClone(namespace);
    withStatus.status = { ...statusOf(namespace), conditions: list };
    let current: KubernetesObject | undefined = namespace;
    if (!jsonEqual(withStatus.status, namespace.status)) {
      current = await this.client.update('', 'namespaces', withStatus, 'status');
      // The server may have removed the namespace on that write already.
      current = this.client.get('', 'namespaces', '', namespace.metadata?.name ?? '');
    }
    if (current === undefined) return;
    const specFinalizers = Array.isArray(specOf(current).finalizers)
      ? (specOf(current).finalizers as unknown[])
      : [];
    if (!specFinalizers.includes(kubernetesFinalizer)) return;
    const finalized = structuredClone(current);
    finalized.spec = {
      ...specOf(current),
      finalizers: specFinalizers.filter((f) => f !== kubernetesFinalizer),
    };
    await this.client.update('', 'namespaces', finalized, 'finalize');
  }
}
