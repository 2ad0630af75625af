import { randomUUID } from 'node:crypto';
import type { KubernetesObject, ObjectMeta, PatchType, Selector } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { StatusError } from '../api/status-error.js';
import type { UserInfo } from '../auth/index.js';
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  strategicSchemaFor,
} from '../patch/index.js';
import {
  apiVersionOf,
  objectKey,
  type ResourceType,
  storageKeyOf,
} from '../registry/resource-type.js';
import { applyDefaults, pruneUnknownFields, validateCustomResource } from '../schema/index.js';
import { type FieldRequirement, matchesFieldSelector } from '../store/field-selector.js';
import {
  type ObjectStore,
  type StoredObject,
  TooOldResourceVersionError,
} from '../store/object-store.js';
import { type Admission, type AdmissionAttributes, noAdmission } from './admission.js';
import {
  generateNameSuffix,
  specChanged,
  stableStringify,
  timestamp,
  validateObjectMeta,
} from './object-metadata.js';
import { strategyFor } from './strategies.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Who is asking, and how. */
export interface RequestContext {
  user: UserInfo;
  dryRun?: boolean;
  /** `Strict`, `Warn` or `Ignore` (default `Warn`, as kube-apiserver). */
  fieldValidation?: string;
  /** Warnings to send back in `Warning` headers. */
  warnings?: string[];
}

/** Filters of a list or watch. */
export interface ListFilter {
  namespace?: string;
  labels?: Selector;
  fields?: FieldRequirement[];
}

/** Options of a list request. */
export interface ListOptions extends ListFilter {
  limit?: number;
  continueToken?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

/** A page of a list. */
export interface ListPage {
  items: StoredObject[];
  resourceVersion: number;
  continueToken?: string;
  remainingItemCount?: number;
}

/** `DeleteOptions`, from the body or the query. */
export interface DeleteOptions {
  propagationPolicy?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
}

/** The patch content types. */

/** Hooks the rest of the server uses to follow writes (CRDs, garbage collection...). */
export interface WriteHooks {
  /** Called with the stored object (or the removed one) after every committed write. */
  afterWrite?(
    type: ResourceType,
    event: 'create' | 'update' | 'delete',
    object: KubernetesObject,
  ): void;
  /**
   * Called when a delete is requested, before the default handling: returns a grace period in
   * seconds when the object is to be deleted gracefully (a scheduled Pod, which the kubelet
   * then removes), or undefined to delete it at once.
   */
  deleteGracefully?(
    type: ResourceType,
    object: KubernetesObject,
    options: DeleteOptions,
  ): number | undefined;
}

interface ServiceOptions {
  store: ObjectStore;
  admission?: Admission;
  hooks?: WriteHooks;
  now?: () => Date;
}

/**
 * The verbs of the API on stored objects, with kube-apiserver's semantics: metadata rules,
 * generation, status subresource, optimistic concurrency, finalizers and deletionTimestamp,
 * admission, CRD schema defaulting/pruning/validation, dry run. No HTTP here: the HTTP layer
 * and the simulated cluster both call this, so the cluster's controllers go through the same
 * admission and validation as any client.
 */
export class ResourceService {
  readonly store: ObjectStore;
  admission: Admission;
  hooks: WriteHooks;
  private readonly now: () => Date;
  private nextClusterIP = 1;

  constructor(options: ServiceOptions) {
    this.store = options.store;
    this.admission = options.admission ?? noAdmission;
    this.hooks = options.hooks ?? {};
    this.now = options.now ?? (() => new Date());
  }

  private allocateClusterIP(): string {
    const n = this.nextClusterIP++;
    return `10.96.${(n >> 8) & 255}.${n & 255}`;
  }

  /** A stored object, or a 404. */
  get(type: ResourceType, namespace: string, name: string): StoredObject {
    const stored = this.store.get(
      storageKeyOf(type),
      objectKey(type.namespaced ? namespace : undefined, name),
    );
    if (stored === undefined) throw StatusError.notFound(type, name);
    return stored;
  }

  /** Whether an object matches a list/watch filter. */
  matches(type: ResourceType, object: KubernetesObject, filter: ListFilter): boolean {
    const meta = object.metadata ?? {};
    if (type.namespaced && filter.namespace && meta.namespace !== filter.namespace) return false;
    if (filter.labels && !filter.labels.matches(meta.labels)) return false;
    if (filter.fields && filter.fields.length > 0 && !matchesFieldSelector(filter.fields, object))
      return false;
    return true;
  }

  /** Checks that a field selector only uses fields this resource supports. */
  checkFieldSelector(type: ResourceType, fields: readonly FieldRequirement[]): void {
    for (const { field } of fields) {
      if (field === 'metadata.name' || (field === 'metadata.namespace' && type.namespaced))
        continue;
      if (type.selectableFields.includes(field)) continue;
      // Kinds with only the metadata fields answer as apimachinery's default conversion does;
      // kinds with their own (Pods, Events, ...) as their conversion functions.
      throw StatusError.badRequest(
        type.selectableFields.length === 0
          ? `"${field}" is not a known field selector: only "metadata.name", "metadata.namespace"`
          : `field label not supported: ${field}`,
      );
    }
  }

  /** A page of objects, with kube-apiserver's resourceVersion and paging semantics. */
  list(type: ResourceType, options: ListOptions): ListPage {
    const key = storageKeyOf(type);
    const current = this.store.currentRevision();
    let atRevision: number | undefined;
    let after: string | undefined;
    if (options.continueToken) {
      const token = decodeContinue(options.continueToken);
      atRevision = token.rv;
      after = token.start;
    } else if (
      options.resourceVersion !== undefined &&
      options.resourceVersion !== '' &&
      options.resourceVersion !== '0'
    ) {
      const requested = Number(options.resourceVersion);
      if (!Number.isInteger(requested) || requested < 0) {
        throw StatusError.badRequest(
          `resourceVersion: Invalid value: "${options.resourceVersion}": must be a non-negative integer`,
        );
      }
      if (requested > current) {
        throw new StatusError(
          504,
          'Timeout',
          `Too large resource version: ${requested}, current: ${current}`,
          {
            causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
            retryAfterSeconds: 1,
          },
        );
      }
      const exact =
        options.resourceVersionMatch === 'Exact' ||
        (options.resourceVersionMatch === undefined &&
          options.limit !== undefined &&
          options.limit > 0);
      if (exact) atRevision = requested;
    } else if (
      options.resourceVersionMatch !== undefined &&
      options.resourceVersionMatch !== 'NotOlderThan'
    ) {
      throw StatusError.badRequest(
        `resourceVersionMatch "${options.resourceVersionMatch}" is forbidden for resourceVersion "${options.resourceVersion ?? ''}"`,
      );
    }
    const revision = atRevision ?? current;
    let all: StoredObject[];
    try {
      all = this.store.list(key, atRevision, after === undefined ? undefined : after);
    } catch (error) {
      if (!(error instanceof TooOldResourceVersionError)) throw error;
      if (options.continueToken) {
        throw StatusError.gone(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        );
      }
      throw StatusError.gone(`too old resource version: ${error.requested} (${error.oldest})`);
    }
    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : undefined;
    const items: StoredObject[] = [];
    let index = 0;
    const namespacePrefix =
      type.namespaced && options.namespace ? `${options.namespace}/` : undefined;
    for (; index < all.length; index++) {
      const stored = all[index] as StoredObject;
      if (namespacePrefix !== undefined && !stored.key.startsWith(namespacePrefix)) continue;
      if (!this.matches(type, stored.object, options)) continue;
      if (limit !== undefined && items.length === limit) break;
      items.push(stored);
    }
    if (limit === undefined || index >= all.length) return { items, resourceVersion: revision };
    const last = items[items.length - 1];
    let remaining = 0;
    for (let i = index; i < all.length; i++) {
      const stored = all[i] as StoredObject;
      if (
        (namespacePrefix === undefined || stored.key.startsWith(namespacePrefix)) &&
        this.matches(type, stored.object, options)
      )
        remaining++;
    }
    if (remaining === 0 || last === undefined) return { items, resourceVersion: revision };
    return {
      items,
      resourceVersion: revision,
      continueToken: encodeContinue({ rv: revision, start: last.key }),
      remainingItemCount: remaining,
    };
  }

  /** Creates an object, running defaulting, admission and validation. */
  async create(
    type: ResourceType,
    namespace: string,
    body: unknown,
    context: RequestContext,
  ): Promise<KubernetesObject> {
    const object = this.decode(type, body, namespace);
    const meta = object.metadata as ObjectMeta;
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${generateNameSuffix()}`;
    const name = meta.name ?? '';
    if (type.namespaced) this.checkNamespaceAccepts(namespace, name);
    const strategy = strategyFor(storageKeyOf(type));
    this.resetSystemFields(object);
    meta.generation = 1;
    if (type.subresources.status && !strategy.keepStatusOnCreate) delete object.status;
    strategy.prepareForCreate?.(object, { allocateClusterIP: () => this.allocateClusterIP() });
    this.applySchema(type, object, context);
    const attributes = this.attributes(type, '', 'CREATE', namespace, name, context);
    let admitted = await this.admission.mutate(attributes, object, undefined);
    admitted = this.decode(type, admitted, namespace);
    this.resetSystemFields(admitted);
    (admitted.metadata as ObjectMeta).generation = 1;
    this.applySchema(type, admitted, context);
    this.validate(type, admitted, undefined);
    await this.admission.validate(attributes, admitted, undefined);
    const finalName = admitted.metadata?.name ?? '';
    if (type.namespaced) this.checkNamespaceAccepts(namespace, finalName);
    const key = objectKey(type.namespaced ? namespace : undefined, finalName);
    if (this.store.get(storageKeyOf(type), key) !== undefined)
      throw StatusError.alreadyExists(type, finalName);
    const finalMeta = admitted.metadata as ObjectMeta;
    finalMeta.uid = randomUUID();
    finalMeta.creationTimestamp = timestamp(this.now());
    if (context.dryRun) return admitted;
    const revision = this.store.nextRevision();
    finalMeta.resourceVersion = String(revision);
    this.store.create(storageKeyOf(type), key, admitted, revision);
    this.hooks.afterWrite?.(type, 'create', admitted);
    return admitted;
  }

  /**
   * Replaces an object (PUT), or its status (`subresource` "status"). A body without
   * resourceVersion updates unconditionally; a stale one is a 409 Conflict.
   */
  async update(
    type: ResourceType,
    namespace: string,
    name: string,
    body: unknown,
    subresource: string,
    context: RequestContext,
  ): Promise<KubernetesObject> {
    const object = this.decode(type, body, namespace);
    if (object.metadata?.name !== name) {
      throw StatusError.badRequest(
        `the name of the object (${object.metadata?.name ?? ''}) does not match the name on the URL (${name})`,
      );
    }
    const requestedVersion = object.metadata?.resourceVersion;
    return this.guaranteedUpdate(
      type,
      namespace,
      name,
      subresource,
      context,
      requestedVersion,
      () => structuredClone(object),
    );
  }

  /** Applies a patch (PATCH) to an object or its status. */
  async patch(
    type: ResourceType,
    namespace: string,
    name: string,
    patchType: PatchType,
    patch: unknown,
    subresource: string,
    context: RequestContext,
  ): Promise<KubernetesObject> {
    if (patchType === 'apply') {
      throw StatusError.unsupportedMediaType('application/apply-patch+yaml');
    }
    const schema =
      patchType === 'strategic' ? strategicSchemaFor(apiVersionOf(type), type.kind) : undefined;
    if (patchType === 'strategic' && schema === undefined) {
      throw StatusError.unsupportedMediaType('application/strategic-merge-patch+json');
    }
    const patchVersion =
      isObject(patch) &&
      isObject(patch.metadata) &&
      typeof patch.metadata.resourceVersion === 'string'
        ? patch.metadata.resourceVersion
        : undefined;
    return this.guaranteedUpdate(
      type,
      namespace,
      name,
      subresource,
      context,
      patchVersion,
      (current) => {
        const base = this.present(type, current);
        let patched: unknown;
        if (patchType === 'json') patched = applyJsonPatch(base, patch);
        else if (patchType === 'merge') patched = applyMergePatch(base, patch);
        else patched = applyStrategicMergePatch(base, patch, schema as NonNullable<typeof schema>);
        if (!isObject(patched)) throw StatusError.badRequest('the patch did not produce an object');
        const patchedObject = patched as KubernetesObject;
        if (patchedObject.metadata?.name !== undefined && patchedObject.metadata.name !== name) {
          throw StatusError.badRequest(
            `the name of the object (${patchedObject.metadata.name}) does not match the name on the URL (${name})`,
          );
        }
        return patchedObject;
      },
    );
  }

  private async guaranteedUpdate(
    type: ResourceType,
    namespace: string,
    name: string,
    subresource: string,
    context: RequestContext,
    requestedVersion: string | undefined,
    produce: (current: KubernetesObject) => KubernetesObject,
  ): Promise<KubernetesObject> {
    const storageKey = storageKeyOf(type);
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    const strategy = strategyFor(storageKey);
    for (let attempt = 0; ; attempt++) {
      const stored = this.store.get(storageKey, key);
      if (stored === undefined) throw StatusError.notFound(type, name);
      if (requestedVersion && requestedVersion !== String(stored.resourceVersion)) {
        throw StatusError.conflict(
          type,
          name,
          'the object has been modified; please apply your changes to the latest version and try again',
        );
      }
      const old = stored.object;
      let next = this.decode(type, produce(stored.copy()), namespace);
      if (subresource === 'status') {
        const status = next.status;
        next = stored.copy();
        if (status === undefined) delete next.status;
        else next.status = status;
      } else if (subresource === 'finalize') {
        // namespaces/finalize changes spec.finalizers and nothing else.
        const finalizers = isObject(next.spec) ? next.spec.finalizers : undefined;
        next = stored.copy();
        next.spec = {
          ...(isObject(next.spec) ? next.spec : {}),
          finalizers: Array.isArray(finalizers) ? finalizers : [],
        };
      } else if (type.subresources.status) {
        if (old.status === undefined) delete next.status;
        else next.status = structuredClone(old.status);
      }
      this.keepSystemFields(next, old);
      if (subresource !== 'finalize') strategy.prepareForUpdate?.(next, old);
      if (subresource !== 'status') this.applySchema(type, next, context);
      const attributes = this.attributes(type, subresource, 'UPDATE', namespace, name, context);
      let admitted = await this.admission.mutate(attributes, next, old);
      admitted = this.decode(type, admitted, namespace);
      this.keepSystemFields(admitted, old);
      this.validate(type, admitted, old);
      this.checkFinalizersWhileDeleting(type, admitted, old);
      await this.admission.validate(attributes, admitted, old);
      const latest = this.store.get(storageKey, key);
      if (latest !== stored) {
        if (requestedVersion || attempt >= 10) {
          throw StatusError.conflict(
            type,
            name,
            'the object has been modified; please apply your changes to the latest version and try again',
          );
        }
        continue;
      }
      const meta = admitted.metadata as ObjectMeta;
      meta.generation = (old.metadata?.generation ?? 1) + (specChanged(old, admitted) ? 1 : 0);
      meta.resourceVersion = String(stored.resourceVersion);
      if (stableStringify(admitted) === stableStringify(old)) return old;
      if (context.dryRun) return admitted;
      const revision = this.store.nextRevision();
      meta.resourceVersion = String(revision);
      if (
        meta.deletionTimestamp &&
        (meta.finalizers ?? []).length === 0 &&
        !hasSpecFinalizers(admitted) &&
        (meta.deletionGracePeriodSeconds ?? 0) === 0
      ) {
        this.store.remove(storageKey, key, admitted, revision);
        this.hooks.afterWrite?.(type, 'delete', admitted);
        return admitted;
      }
      this.store.update(storageKey, key, admitted, revision);
      this.hooks.afterWrite?.(type, 'update', admitted);
      return admitted;
    }
  }

  /**
   * Deletes an object: at once when it has no finalizers, else marks it with a
   * deletionTimestamp and leaves it to its finalizers. `propagationPolicy` Foreground and
   * Orphan add the `foregroundDeletion` / `orphan` finalizer for the garbage collector.
   */
  async delete(
    type: ResourceType,
    namespace: string,
    name: string,
    options: DeleteOptions,
    context: RequestContext,
  ): Promise<KubernetesObject> {
    const storageKey = storageKeyOf(type);
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    const stored = this.store.get(storageKey, key);
    if (stored === undefined) throw StatusError.notFound(type, name);
    const preconditions = options.preconditions ?? {};
    const uid = stored.object.metadata?.uid ?? '';
    if (preconditions.uid && preconditions.uid !== uid) {
      throw StatusError.conflict(
        { group: type.group, resource: type.kind, kind: type.kind },
        name,
        `the UID in the precondition (${preconditions.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
      );
    }
    if (
      preconditions.resourceVersion &&
      preconditions.resourceVersion !== String(stored.resourceVersion)
    ) {
      throw StatusError.conflict(
        { group: type.group, resource: type.kind, kind: type.kind },
        name,
        `the ResourceVersion in the precondition (${preconditions.resourceVersion}) does not match the ResourceVersion in record (${stored.resourceVersion}). The object might have been modified`,
      );
    }
    const policy =
      options.propagationPolicy ?? (options.orphanDependents === true ? 'Orphan' : undefined);
    if (policy !== undefined && !['Orphan', 'Foreground', 'Background'].includes(policy)) {
      throw StatusError.badRequest(
        `DeleteOptions.propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    const attributes = this.attributes(type, '', 'DELETE', namespace, name, context);
    // Mutating webhooks see deletes too (they cannot change the outcome); then validating ones.
    await this.admission.mutate(attributes, stored.object, stored.object);
    await this.admission.validate(attributes, stored.object, stored.object);
    const object = stored.copy();
    const meta = object.metadata as ObjectMeta;
    const finalizers = [...(meta.finalizers ?? [])];
    const add = (finalizer: string) => {
      if (!finalizers.includes(finalizer)) finalizers.push(finalizer);
    };
    if (policy === 'Orphan') add('orphan');
    if (policy === 'Foreground') add('foregroundDeletion');
    const namespaceFinalizers =
      type.group === '' &&
      type.plural === 'namespaces' &&
      isObject(object.spec) &&
      Array.isArray(object.spec.finalizers) &&
      object.spec.finalizers.length > 0;
    if (meta.deletionTimestamp !== undefined) {
      // Already being deleted: a shorter grace period takes effect, and grace 0 without
      // finalizers removes the object, as kube-apiserver does; new propagation finalizers are
      // added.
      const grace = options.gracePeriodSeconds;
      const shorter = grace !== undefined && grace < (meta.deletionGracePeriodSeconds ?? 0);
      const unchanged = finalizers.length === (meta.finalizers ?? []).length && !shorter;
      if (unchanged || context.dryRun) return stored.object;
      if (finalizers.length > 0) meta.finalizers = finalizers;
      if (shorter) {
        meta.deletionGracePeriodSeconds = grace;
        meta.deletionTimestamp = timestamp(new Date(this.now().getTime() + (grace ?? 0) * 1000));
      }
      if (shorter && grace === 0 && finalizers.length === 0 && !hasSpecFinalizers(object)) {
        return this.commit('delete', type, storageKey, key, object);
      }
      return this.commit('update', type, storageKey, key, object);
    }
    const graceful = this.hooks.deleteGracefully?.(type, stored.object, options);
    if (finalizers.length > 0 || namespaceFinalizers || graceful !== undefined) {
      meta.deletionTimestamp = timestamp(new Date(this.now().getTime() + (graceful ?? 0) * 1000));
      meta.deletionGracePeriodSeconds = graceful ?? 0;
      if (finalizers.length > 0) meta.finalizers = finalizers;
      if (namespaceFinalizers)
        object.status = { ...(isObject(object.status) ? object.status : {}), phase: 'Terminating' };
      if (context.dryRun) return object;
      return this.commit('update', type, storageKey, key, object);
    }
    if (context.dryRun) return object;
    return this.commit('delete', type, storageKey, key, object);
  }

  /** Removes or replaces an object under the next resourceVersion and tells the hooks. */
  private commit(
    verb: 'delete' | 'update',
    type: ResourceType,
    storageKey: string,
    key: string,
    object: KubernetesObject,
  ): KubernetesObject {
    const revision = this.store.nextRevision();
    (object.metadata as ObjectMeta).resourceVersion = String(revision);
    if (verb === 'delete') this.store.remove(storageKey, key, object, revision);
    else this.store.update(storageKey, key, object, revision);
    this.hooks.afterWrite?.(type, verb, object);
    return object;
  }

  /** Deletes every object matching a filter (DELETE on a collection). */
  async deleteCollection(
    type: ResourceType,
    filter: ListFilter,
    options: DeleteOptions,
    context: RequestContext,
  ): Promise<KubernetesObject[]> {
    const page = this.list(type, filter);
    const deleted: KubernetesObject[] = [];
    for (const stored of page.items) {
      const meta = stored.object.metadata ?? {};
      try {
        deleted.push(
          await this.delete(type, meta.namespace ?? '', meta.name ?? '', options, context),
        );
      } catch (error) {
        if (!(StatusError.isInstance(error) && error.code === 404)) throw error;
      }
    }
    return deleted;
  }

  /** The object as served at `type`'s version (custom resources may be served at several). */
  present(type: ResourceType, object: KubernetesObject): KubernetesObject {
    const apiVersion = apiVersionOf(type);
    if (object.apiVersion === apiVersion) return object;
    return { ...object, apiVersion };
  }

  private decode(type: ResourceType, body: unknown, namespace: string): KubernetesObject {
    if (!isObject(body))
      throw StatusError.badRequest('the body of the request must be a JSON object');
    const object = body as KubernetesObject;
    const apiVersion = apiVersionOf(type);
    if (object.kind !== undefined && object.kind !== type.kind) {
      throw StatusError.badRequest(
        `the kind in the data (${String(object.kind)}) does not match the expected kind (${type.kind})`,
      );
    }
    if (object.apiVersion !== undefined && object.apiVersion !== apiVersion) {
      const group = String(object.apiVersion).includes('/')
        ? String(object.apiVersion).split('/')[0]
        : '';
      if (group !== type.group) {
        throw StatusError.badRequest(
          `the API version in the data (${String(object.apiVersion)}) does not match the expected API version (${apiVersion})`,
        );
      }
    }
    object.apiVersion = type.custom
      ? apiVersionOf({ group: type.group, version: type.storageVersion })
      : apiVersion;
    object.kind = type.kind;
    if (object.metadata === undefined || object.metadata === null) object.metadata = {};
    if (!isObject(object.metadata)) throw StatusError.badRequest('metadata must be an object');
    const meta = object.metadata as ObjectMeta;
    if (type.namespaced) {
      if (meta.namespace && namespace && meta.namespace !== namespace) {
        throw StatusError.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = namespace || meta.namespace;
    } else {
      delete meta.namespace;
    }
    return object;
  }

  private resetSystemFields(object: KubernetesObject): void {
    const meta = object.metadata as ObjectMeta;
    delete meta.uid;
    delete meta.resourceVersion;
    delete meta.creationTimestamp;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.selfLink;
    delete meta.managedFields;
  }

  private keepSystemFields(object: KubernetesObject, old: KubernetesObject): void {
    const meta = object.metadata as ObjectMeta;
    const previous = old.metadata ?? {};
    for (const field of [
      'uid',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'name',
      'namespace',
    ] as const) {
      if (previous[field] === undefined) delete meta[field];
      else (meta as Record<string, unknown>)[field] = previous[field];
    }
    delete meta.generateName;
    if (previous.generateName !== undefined) meta.generateName = previous.generateName;
    delete meta.managedFields;
    delete meta.selfLink;
  }

  private checkNamespaceAccepts(namespace: string, name: string): void {
    if (!namespace)
      throw StatusError.badRequest(
        `namespace is required for namespaced resources (object "${name}")`,
      );
    const stored = this.store.get('/namespaces', namespace);
    if (stored === undefined) {
      throw StatusError.notFound(
        { group: '', resource: 'namespaces', kind: 'Namespace' },
        namespace,
      );
    }
    if (stored.object.metadata?.deletionTimestamp) {
      throw new StatusError(
        403,
        'Forbidden',
        `unable to create new content in namespace ${namespace} because it is being terminated`,
        {
          causes: [
            {
              reason: 'NamespaceTerminating',
              message: `namespace ${namespace} is being terminated`,
              field: 'metadata.namespace',
            },
          ],
        },
      );
    }
  }

  private checkFinalizersWhileDeleting(
    type: ResourceType,
    object: KubernetesObject,
    old: KubernetesObject,
  ): void {
    if (!old.metadata?.deletionTimestamp) return;
    const before = new Set(old.metadata.finalizers ?? []);
    const added = (object.metadata?.finalizers ?? []).filter((f) => !before.has(f));
    if (added.length > 0) {
      throw StatusError.invalid(type, object.metadata?.name ?? '', [
        {
          type: 'FieldValueForbidden',
          field: 'metadata.finalizers',
          detail: `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`,
        },
      ]);
    }
  }

  private applySchema(type: ResourceType, object: KubernetesObject, context: RequestContext): void {
    if (!type.custom || type.schema === undefined) return;
    applyDefaults(type.schema, object);
    const pruned = pruneUnknownFields(type.schema, object);
    if (pruned.length === 0) return;
    const mode = context.fieldValidation ?? 'Warn';
    if (mode === 'Strict') {
      throw StatusError.badRequest(
        `strict decoding error: ${pruned.map((path: string) => `unknown field "${path}"`).join(', ')}`,
      );
    }
    if (mode === 'Warn')
      for (const path of pruned) context.warnings?.push(`unknown field "${path}"`);
  }

  private validate(
    type: ResourceType,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
  ): void {
    const errors: FieldError[] = validateObjectMeta(type, object.metadata ?? {});
    if (type.custom && type.schema !== undefined)
      errors.push(...validateCustomResource(type.schema, object));
    errors.push(...(strategyFor(storageKeyOf(type)).validate?.(object, old) ?? []));
    if (errors.length > 0) throw StatusError.invalid(type, object.metadata?.name ?? '', errors);
  }

  private attributes(
    type: ResourceType,
    subresource: string,
    operation: AdmissionAttributes['operation'],
    namespace: string,
    name: string,
    context: RequestContext,
  ): AdmissionAttributes {
    return {
      type,
      subresource,
      operation,
      namespace: type.namespaced ? namespace : '',
      name,
      user: context.user,
      dryRun: context.dryRun ?? false,
      options: {},
    };
  }
}

/** Whether a Namespace still has `spec.finalizers` (it is removed only once they are gone). */
function hasSpecFinalizers(object: KubernetesObject): boolean {
  return (
    object.kind === 'Namespace' &&
    isObject(object.spec) &&
    Array.isArray(object.spec.finalizers) &&
    object.spec.finalizers.length > 0
  );
}

interface ContinueToken {
  rv: number;
  start: string;
}

function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: 'meta.k8s.io/v1', rv: token.rv, start: token.start }),
  ).toString('base64url');
}

function decodeContinue(text: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Json;
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string')
      return { rv: parsed.rv, start: parsed.start };
  } catch {
    // falls through to the error below
  }
  throw StatusError.badRequest(
    `invalid continue token: the continue parameter is not valid; start a new list without it`,
  );
}
