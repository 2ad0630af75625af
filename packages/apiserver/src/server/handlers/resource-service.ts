import { randomUUID } from 'node:crypto';
import type { DeleteOptions, KubernetesObject, ObjectMeta, PatchType, Selector } from '@ops/api';
import {
  type FieldRequirement,
  formatRfc3339Seconds,
  isJsonObject,
  jsonEqual,
  matchesFieldSelector,
} from '@ops/api';
import { type Admission, noAdmission } from '../../admission/admission.js';
import { StatusError } from '../../api/status-error.js';
import { type ManagedFieldsEntry, managedFieldsOnWrite, writeScopeOf } from '../../apply/index.js';
import type { AuthenticatedUser } from '../../auth/index.js';
import { WebhookConverter } from '../../conversion/webhook-converter.js';
import { checkStorable } from '../../limits/storable-object.js';
import { generateNameSuffix } from '../../meta/object-metadata.js';
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  strategicSchemaFor,
} from '../../patch/index.js';
import {
  apiVersionOf,
  objectKey,
  type ResourceType,
  storageKeyOf,
} from '../../registry/resource-type.js';
import type { ObjectStore, StoredObject } from '../../store/object-store.js';
import { strategyFor } from '../strategies/index.js';
import {
  bumpGenerationOnDeletion,
  generationOnCreate,
  generationOnUpdate,
  setGeneration,
} from './generation.js';
import { listPage } from './list-page.js';
import { serverSideApply } from './server-side-apply.js';
import {
  type ConversionPlace,
  conversionFailure,
  convertsByWebhook,
  presentAt,
  storageTypeOf,
} from './version-conversion.js';
import {
  admissionAttributes,
  applySchema,
  checkFinalizersWhileDeleting,
  checkNamespaceAccepts,
  decodeObject,
  keepSystemFields,
  resetSystemFields,
  validateObject,
} from './write-rules.js';

/**
 * The `metadata.resourceVersion` a patch body carries (the precondition kube-apiserver
 * checks), or undefined when it has none.
 */
function resourceVersionOfPatch(patch: unknown): string | undefined {
  if (!isJsonObject(patch) || !isJsonObject(patch.metadata)) return undefined;
  const version = patch.metadata.resourceVersion;
  return typeof version === 'string' ? version : undefined;
}

/** Who is asking, and how. */
export interface RequestContext {
  user: AuthenticatedUser;
  dryRun?: boolean;
  /** `Strict`, `Warn` or `Ignore` (default `Warn`, as kube-apiserver). */
  fieldValidation?: string;
  /** Warnings to send back in `Warning` headers. */
  warnings?: string[];
  /** The `fieldManager` query parameter: who the write's managed fields are recorded under. */
  fieldManager?: string;
  /** The request's User-Agent, whose first segment names the manager without `fieldManager`. */
  userAgent?: string;
  /** `force=true`: a server-side apply takes the fields other managers own. */
  force?: boolean;
}

/** Filters of a list or watch. */
export interface ListFilter {
  namespace?: string;
  labels?: Selector;
  fields?: FieldRequirement[];
}

/**
 * A list request's query parameters as the server parsed them (selectors compiled, the
 * `continue` token named `continueToken`); not the `metav1.ListOptions` wire object.
 */
export interface ParsedListOptions extends ListFilter {
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
   * Called with the object a create or update (`old` then set) is about to store, after
   * defaulting and before admission, including on dry run: throws a StatusError to refuse
   * the write (the server's RBAC escalation check).
   */
  beforeWrite?(
    type: ResourceType,
    object: KubernetesObject,
    old: KubernetesObject | undefined,
    context: RequestContext,
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
  /** Calls CRDs' conversion webhooks. Default: a new {@link WebhookConverter} on `store`. */
  converter?: WebhookConverter;
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
  /** Converts custom resources whose CRD has a conversion webhook; close it on shutdown. */
  readonly converter: WebhookConverter;
  /** The clock. */ readonly now: () => Date;
  private nextClusterIP = 1;

  constructor(options: ServiceOptions) {
    this.store = options.store;
    this.converter = options.converter ?? new WebhookConverter({ store: options.store });
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

  /** Whether an object matches a list/watch filter ({@link matchesFilter}). */
  matches = matchesFilter;

  /** A page of objects, with kube-apiserver's resourceVersion and paging semantics. */
  list(type: ResourceType, options: ParsedListOptions): ListPage {
    return listPage(this.store, type, options, (object) => this.matches(type, object, options));
  }

  /** Creates an object, running defaulting, admission and validation. */
  async create(
    type: ResourceType,
    namespace: string,
    body: unknown,
    context: RequestContext,
    applied?: ManagedFieldsEntry[],
  ): Promise<KubernetesObject> {
    const requested = isJsonObject(body) ? (body.metadata as ObjectMeta)?.managedFields : undefined;
    const object = decodeObject(type, body, namespace);
    const meta = object.metadata as ObjectMeta;
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${generateNameSuffix()}`;
    const name = meta.name ?? '';
    if (type.namespaced) checkNamespaceAccepts(this.store, namespace, name);
    const strategy = strategyFor(storageKeyOf(type));
    const requestedGeneration = meta.generation;
    resetSystemFields(object);
    setGeneration(meta, generationOnCreate(type, requestedGeneration));
    if (type.subresources.status && !strategy.keepStatusOnCreate) delete object.status;
    strategy.prepareForCreate?.(object, { allocateClusterIP: () => this.allocateClusterIP() });
    applySchema(type, object, context);
    const managed = applied ?? record(this, type, undefined, object, requested, context, '');
    // A body in a version the CRD's webhook converts is stored (and checked) as storage's.
    const target = storageTypeOf(type);
    const storable = await toStorage(this, type, object);
    this.hooks.beforeWrite?.(type, storable, undefined, context);
    const attributes = admissionAttributes(type, '', 'CREATE', namespace, name, context);
    let admitted = await this.admission.mutate(attributes, storable, undefined);
    admitted = decodeObject(target, admitted, namespace);
    resetSystemFields(admitted);
    setGeneration(admitted.metadata as ObjectMeta, generationOnCreate(type, requestedGeneration));
    applySchema(target, admitted, context);
    const uid = randomUUID();
    (admitted.metadata as ObjectMeta).uid = uid;
    strategy.completeCreate?.(admitted);
    validateObject(target, admitted, undefined, context.warnings);
    await this.admission.validate(attributes, admitted, undefined);
    const finalName = admitted.metadata?.name ?? '';
    if (type.namespaced) checkNamespaceAccepts(this.store, namespace, finalName);
    const key = objectKey(type.namespaced ? namespace : undefined, finalName);
    if (this.store.get(storageKeyOf(type), key) !== undefined)
      throw StatusError.alreadyExists(type, finalName);
    const finalMeta = admitted.metadata as ObjectMeta;
    finalMeta.uid = uid;
    finalMeta.creationTimestamp = formatRfc3339Seconds(this.now());
    if (managed.length > 0) finalMeta.managedFields = managed;
    checkStorable(admitted);
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
    const object = decodeObject(type, body, namespace);
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
    const apply = () => serverSideApply(this, type, namespace, name, patch, subresource, context);
    if (patchType === 'apply') return (await apply()).object;
    const schema =
      patchType === 'strategic' ? strategicSchemaFor(apiVersionOf(type), type.kind) : undefined;
    if (patchType === 'strategic' && schema === undefined) {
      throw StatusError.unsupportedMediaType('application/strategic-merge-patch+json');
    }
    const patchVersion = resourceVersionOfPatch(patch);
    return this.guaranteedUpdate(
      type,
      namespace,
      name,
      subresource,
      context,
      patchVersion,
      (current) => patchedObject(presentAt(type, current), patchType, patch, schema, name),
    );
  }

  /** An update to what `produce` makes of the stored object; `applied`: apply's managed fields. */
  async guaranteedUpdate(
    type: ResourceType,
    namespace: string,
    name: string,
    subresource: string,
    context: RequestContext,
    requestedVersion: string | undefined,
    produce: (current: KubernetesObject) => KubernetesObject | Promise<KubernetesObject>,
    applied?: () => ManagedFieldsEntry[],
  ): Promise<KubernetesObject> {
    const storageKey = storageKeyOf(type);
    const target = storageTypeOf(type);
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
      // The stored object as the request's version sees it: a CRD's webhook may convert it.
      const base = type.conversionWebhook ? await this.served(type, old, 'request') : old;
      const current = () => (base === old ? stored.copy() : structuredClone(base));
      let next = decodeObject(type, await produce(current()), namespace);
      const requested = next.metadata?.managedFields;
      if (subresource === 'status') {
        const status = next.status;
        const annotations = next.metadata?.annotations;
        next = current();
        if (status === undefined) delete next.status;
        else next.status = status;
        if (strategy.statusKeepsAnnotations) setAnnotations(next, annotations);
      } else if (subresource === 'finalize') {
        // namespaces/finalize changes spec.finalizers and nothing else.
        const finalizers = isJsonObject(next.spec) ? next.spec.finalizers : undefined;
        next = current();
        next.spec = {
          ...(isJsonObject(next.spec) ? next.spec : {}),
          finalizers: Array.isArray(finalizers) ? finalizers : [],
        };
      } else if (type.subresources.status) {
        if (base.status === undefined) delete next.status;
        else next.status = structuredClone(base.status);
      }
      keepSystemFields(next, old);
      if (subresource !== 'finalize') strategy.prepareForUpdate?.(next, old, subresource);
      if (subresource !== 'status') applySchema(type, next, context);
      const managed =
        applied?.() ?? record(this, type, base, next, requested, context, subresource);
      const storable = await toStorage(this, type, next);
      this.hooks.beforeWrite?.(type, storable, old, context);
      const attributes = admissionAttributes(type, subresource, 'UPDATE', namespace, name, context);
      let admitted = await this.admission.mutate(attributes, storable, old);
      admitted = decodeObject(target, admitted, namespace);
      keepSystemFields(admitted, old);
      validateObject(target, admitted, old, context.warnings);
      checkFinalizersWhileDeleting(type, admitted, old);
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
      setGeneration(meta, generationOnUpdate(type, old, admitted, subresource));
      meta.resourceVersion = String(stored.resourceVersion);
      if (managed.length > 0) meta.managedFields = managed;
      checkStorable(admitted);
      if (jsonEqual(admitted, old)) return old;
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
    checkPreconditions(type, name, stored, options.preconditions ?? {});
    const policy =
      options.propagationPolicy ?? (options.orphanDependents === true ? 'Orphan' : undefined);
    if (policy !== undefined && !['Orphan', 'Foreground', 'Background'].includes(policy)) {
      throw StatusError.badRequest(
        `DeleteOptions.propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
      );
    }
    const attributes = admissionAttributes(type, '', 'DELETE', namespace, name, context);
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
      isJsonObject(object.spec) &&
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
        meta.deletionTimestamp = formatRfc3339Seconds(
          new Date(this.now().getTime() + (grace ?? 0) * 1000),
        );
      }
      if (shorter && grace === 0 && finalizers.length === 0 && !hasSpecFinalizers(object)) {
        return this.commit('delete', type, storageKey, key, object);
      }
      return this.commit('update', type, storageKey, key, object);
    }
    const graceful = this.hooks.deleteGracefully?.(type, stored.object, options);
    if (finalizers.length > 0 || namespaceFinalizers || graceful !== undefined) {
      bumpGenerationOnDeletion(meta);
      meta.deletionTimestamp = formatRfc3339Seconds(
        new Date(this.now().getTime() + (graceful ?? 0) * 1000),
      );
      meta.deletionGracePeriodSeconds = graceful ?? 0;
      if (finalizers.length > 0) meta.finalizers = finalizers;
      if (namespaceFinalizers)
        object.status = {
          ...(isJsonObject(object.status) ? object.status : {}),
          phase: 'Terminating',
        };
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

  /**
   * The object as served at `type`'s version: {@link presentAt}, or, for a CRD with a
   * conversion webhook, the webhook's conversion.
   *
   * @throws {StatusError} a 500 worded as kube-apiserver's for a conversion that fails at
   *   `place` (see {@link conversionFailure}).
   */
  async served(
    type: ResourceType,
    object: KubernetesObject,
    place: ConversionPlace,
  ): Promise<KubernetesObject> {
    const webhook = type.conversionWebhook;
    if (webhook === undefined || object.apiVersion === apiVersionOf(type))
      return presentAt(type, object);
    try {
      return await this.converter.convert(webhook, object, apiVersionOf(type));
    } catch (error) {
      throw conversionFailure(type, object, error, place);
    }
  }
}

/**
 * The result of a JSON, merge or strategic merge `patch` of `base`.
 *
 * @throws {StatusError} 400 when the patch does not apply, does not make an object, or
 *   renames it.
 */
function patchedObject(
  base: KubernetesObject,
  patchType: PatchType,
  patch: unknown,
  schema: ReturnType<typeof strategicSchemaFor>,
  name: string,
): KubernetesObject {
  let patched: unknown;
  if (patchType === 'json') patched = applyJsonPatch(base, patch);
  else if (patchType === 'merge') patched = applyMergePatch(base, patch);
  else patched = applyStrategicMergePatch(base, patch, schema as NonNullable<typeof schema>);
  if (!isJsonObject(patched)) throw StatusError.badRequest('the patch did not produce an object');
  const object = patched as KubernetesObject;
  if (object.metadata?.name !== undefined && object.metadata.name !== name) {
    throw StatusError.badRequest(
      `the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`,
    );
  }
  return object;
}

/**
 * `object`, in `type`'s version, converted to the storage version by its CRD's conversion
 * webhook; `object` itself when the CRD has none or `type` is the storage version.
 *
 * @throws {StatusError} 500 with the converter's message, as kube-apiserver answers a body it
 *   cannot convert.
 */
async function toStorage(
  service: ResourceService,
  type: ResourceType,
  object: KubernetesObject,
): Promise<KubernetesObject> {
  if (!convertsByWebhook(type)) return object;
  const storageVersion = apiVersionOf({ group: type.group, version: type.storageVersion });
  try {
    return await service.converter.convert(type.conversionWebhook, object, storageVersion);
  } catch (error) {
    throw conversionFailure(type, object, error, 'request');
  }
}

/**
 * Checks a delete's preconditions against the stored object.
 *
 * @throws {StatusError} 409 when the uid or resourceVersion differs, worded as kube-apiserver.
 */
function checkPreconditions(
  type: ResourceType,
  name: string,
  stored: StoredObject,
  preconditions: NonNullable<DeleteOptions['preconditions']>,
): void {
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
}

/** Whether an object matches a list/watch filter: namespace, label and field selectors. */
export function matchesFilter(
  type: ResourceType,
  object: KubernetesObject,
  filter: ListFilter,
): boolean {
  const meta = object.metadata ?? {};
  if (type.namespaced && filter.namespace && meta.namespace !== filter.namespace) return false;
  if (filter.labels && !filter.labels.matches(meta.labels)) return false;
  if (filter.fields && filter.fields.length > 0 && !matchesFieldSelector(filter.fields, object))
    return false;
  return true;
}

/**
 * The managed fields of a write by `context`'s writer at `service`'s time (see
 * {@link managedFieldsOnWrite}).
 */
function record(
  service: ResourceService,
  type: ResourceType,
  live: KubernetesObject | undefined,
  next: KubernetesObject,
  requested: unknown,
  context: RequestContext,
  subresource: string,
): ManagedFieldsEntry[] {
  const scope = writeScopeOf(context, subresource, service.now());
  return managedFieldsOnWrite(type, live, next, requested, scope);
}

/** Replaces an object's annotations (none when `annotations` is undefined). */
function setAnnotations(
  object: KubernetesObject,
  annotations: Record<string, string> | undefined,
): void {
  const meta = object.metadata as ObjectMeta;
  if (annotations === undefined) delete meta.annotations;
  else meta.annotations = annotations;
}

/** Whether a Namespace still has `spec.finalizers` (it is removed only once they are gone). */
function hasSpecFinalizers(object: KubernetesObject): boolean {
  return (
    object.kind === 'Namespace' &&
    isJsonObject(object.spec) &&
    Array.isArray(object.spec.finalizers) &&
    object.spec.finalizers.length > 0
  );
}
