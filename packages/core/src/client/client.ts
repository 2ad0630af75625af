import type { KubeConfig } from '@kubernetes/client-node';
import type {
  DeleteOptions as ApiDeleteOptions,
  KubernetesObject,
  LabelSelector,
  PartialObjectMetadata,
} from '@ops/api';
import { isJsonObject, type PatchType, patchContentTypes, type Selector } from '@ops/api';
import type { CacheReader } from '../cache/cache-reader.js';
import type { ObjectKind, ObjectOf } from '../crd/object-kind.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import { KubeTransport } from '../transport/kube-transport.js';
import { badRequestError } from './api-error-from-response.js';
import { CachedReads, toSelector } from './cached-reads.js';
import { DiscoveryRestMapper } from './discovery-rest-mapper.js';
import { type FieldSelectorInput, fieldSelectorToString } from './field-selector.js';
import { ResourceRequester, typedObject } from './resource-requester.js';
import { namespaceFor, writeTarget } from './write-target.js';

/** The Kubernetes verb of a client call, as RBAC names it. */
export type ClientVerb =
  | 'get'
  | 'list'
  | 'create'
  | 'update'
  | 'patch'
  | 'delete'
  | 'deletecollection';

/** What a request sent to the API server is about (the third argument of `onRequest`). */
export interface ClientRequestInfo {
  verb: ClientVerb;
  group: string;
  version: string;
  /** Plural resource name, e.g. `deployments`. */
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** How a {@link Client} reaches the cluster and what it reads from. */
export interface ClientOptions {
  /** The configuration to talk to the cluster with (see `loadKubeConfig`); or give `transport`. */
  kubeConfig?: KubeConfig;
  /** A transport to share; it is not closed by {@link Client.close}. */
  transport?: KubeTransport;
  /** Maps apiVersion and kind to resources (default: a {@link DiscoveryRestMapper} on the transport). */
  restMapper?: RestMapper;
  /**
   * Serves `get` and `list` for the kinds it `has`; writes always go to the API server and
   * are reported to it (`beginWrite`, `recordWrite`), so that reads wait until it shows them
   * (`awaitOwnWrites`; read-your-writes, see `InformerCache`).
   */
  cache?: CacheReader;
  /** The field manager of writes that name none (required by server-side apply). */
  fieldManager?: string;
  /**
   * Called once before every request sent to the API server by this client's calls
   * (discovery requests and reads served from the cache are not counted), with the verb and
   * the resource (`configmaps`, or `configmaps/status` for a subresource).
   */
  onRequest?: (verb: ClientVerb, resource: string, info: ClientRequestInfo) => void;
  /** Milliseconds before a request is abandoned (default 60 s; 0 for none). */
  timeoutMs?: number;
  /** Objects per page when `list` pages through a whole collection (default 500). */
  listPageSize?: number;
}

/** The identity of an object: what `get`, `patch` and `delete` accept instead of the object. */
export interface ObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
  /** Required for namespaced kinds; ignored for cluster-scoped ones. */
  namespace?: string;
}

/** A list answer: the items and the list's metadata. */
export interface ObjectList<T extends KubernetesObject = KubernetesObject> {
  apiVersion: string;
  /** `<Kind>List`. */
  kind: string;
  metadata: {
    /** The collection's resourceVersion at the time of the (first page of the) list. */
    resourceVersion?: string;
    /** Token for the next page; only with `limit`/`continue` paging, absent on the last page. */
    continue?: string;
    remainingItemCount?: number;
  };
  /** Every item carries `apiVersion` and `kind`. */
  items: T[];
}

/** Options common to every call. */
export interface CallOptions {
  /** Aborts the call (it rejects with an ApiError of reason `ConnectionFailed`). */
  signal?: AbortSignal;
}

/** Options of {@link Client.list}. */
export interface ListOptions extends CallOptions {
  /** Only objects in this namespace (default: all namespaces). */
  namespace?: string;
  /** Label selector: text (`app=web,tier in (a,b)`), a compiled `Selector`, or a structured `LabelSelector`. */
  labelSelector?: string | Selector | LabelSelector;
  /** Field selector: text (`metadata.name=x`) or field → value equalities. */
  fieldSelector?: FieldSelectorInput;
  /**
   * Returns one page of at most `limit` objects, with `metadata.continue` when more remain.
   * Without `limit` and `continue`, `list` pages through the whole collection itself.
   */
  limit?: number;
  /** Continues a paged list from the token of the previous page. */
  continue?: string;
  /** resourceVersion semantics of the read (`0`: any cached version is fine). */
  resourceVersion?: string;
}

/** Options of `create` and `update`. */
export interface WriteOptions extends CallOptions {
  /** Validates and admits the write without persisting it (`dryRun=All`). */
  dryRun?: boolean;
  /** The field manager recorded in `managedFields` (default: the client's). */
  fieldManager?: string;
}

/** Options of `patch`. */
export interface PatchOptions extends WriteOptions {
  /** Server-side apply only: take over fields other managers own instead of failing with a conflict. */
  force?: boolean;
}

/**
 * Options of `delete`: the `metav1.DeleteOptions` (`DeleteOptions` of `@ops/api`) a caller
 * sets, which the client sends as the request body, with `dryRun` as a flag.
 */
export interface ClientDeleteOptions
  extends CallOptions,
    Pick<ApiDeleteOptions, 'propagationPolicy' | 'preconditions' | 'gracePeriodSeconds'> {
  /** Admits the delete without performing it (sent as `dryRun: ['All']`). */
  dryRun?: boolean;
}

/**
 * The former name of {@link ClientDeleteOptions}, kept so existing imports compile.
 * @deprecated Use `ClientDeleteOptions`; `DeleteOptions` of `@ops/api` is the API object.
 */
export type DeleteOptions = ClientDeleteOptions;

/** Options of `deleteAllOf`: which objects, and how to delete them. */
export interface DeleteAllOfOptions extends ClientDeleteOptions {
  /** Required for namespaced kinds. */
  namespace?: string;
  labelSelector?: string | Selector | LabelSelector;
  fieldSelector?: FieldSelectorInput;
}

/** The label selector as a compiled Selector. @throws {LabelSelectorError} when invalid. */

function refOf(target: ObjectRef | KubernetesObject, action: string): ObjectRef {
  if (
    typeof (target as ObjectRef).name === 'string' &&
    !isJsonObject((target as KubernetesObject).metadata)
  ) {
    const ref = target as ObjectRef;
    if (!ref.apiVersion || !ref.kind) {
      throw badRequestError(`cannot ${action} ${JSON.stringify(ref)}: give apiVersion and kind`);
    }
    return ref;
  }
  const object = target as KubernetesObject;
  const name = object.metadata?.name;
  if (!object.apiVersion || !object.kind || !name) {
    throw badRequestError(
      `cannot ${action} an object without apiVersion, kind and metadata.name (got apiVersion ${JSON.stringify(object.apiVersion)}, kind ${JSON.stringify(object.kind)}, name ${JSON.stringify(name)}); set them on the object`,
    );
  }
  const namespace = object.metadata?.namespace;
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    name,
    ...(namespace ? { namespace } : {}),
  };
}

/** The arguments of `get` and `getMetadata`, in any of their forms (see {@link getArguments}). */
type GetArguments = [
  first: string | ObjectKind | ObjectRef | KubernetesObject,
  second?: string | CallOptions,
  third?: string | CallOptions,
  fourth?: string | CallOptions,
  options?: CallOptions,
];

/**
 * The object a `get` (or `getMetadata`) names, from any of its argument forms: `(apiVersion,
 * kind, name, namespace?, options?)`, `(kind, name, namespace?, options?)` or `(ref,
 * options?)`, and its call options.
 *
 * @throws {ApiError} `BadRequest` when no name is given, or the ref lacks apiVersion or kind.
 */
function getArguments(...[first, second, third, fourth, options]: GetArguments): {
  ref: ObjectRef;
  callOptions: CallOptions | undefined;
} {
  let ref: ObjectRef;
  let callOptions: CallOptions | undefined;
  if (typeof first === 'string') {
    ref = {
      apiVersion: first,
      kind: typeof second === 'string' ? second : '',
      name: typeof third === 'string' ? third : '',
      ...(typeof fourth === 'string' && fourth ? { namespace: fourth } : {}),
    };
    callOptions = options;
  } else if (typeof second === 'string') {
    // (kind, name, namespace?, options?)
    const kind = first as ObjectKind;
    ref = { apiVersion: kind.apiVersion, kind: kind.kind, name: second };
    if (typeof third === 'string' && third) ref.namespace = third;
    callOptions = typeof fourth === 'object' ? fourth : undefined;
  } else {
    return {
      ref: refOf(first as ObjectRef | KubernetesObject, 'get'),
      callOptions: typeof second === 'object' ? second : undefined,
    };
  }
  if (!ref.name) throw badRequestError(`cannot get a ${ref.kind} without a name; pass its name`);
  return { ref, callOptions };
}

/**
 * A client for any kind, addressed by apiVersion and kind, like controller-runtime's
 * client: reads (`get`, `list`) come from the cache for kinds it has synced and from the API
 * server otherwise; writes always go to the API server.
 *
 * Read-your-writes: a read from the cache never returns an object older than this client's
 * own last write of it (create, update, patch, apply, their status forms, delete). Each
 * successful write (not a dry run) is reported to the cache, and a read of that object (a
 * list: of that kind and namespace) first waits for the cache to show it; if the cache does
 * not within its bound (`readYourWritesTimeoutMs` of `InformerCache`), the read is served
 * by the API server instead. A cache without these optional methods is read at once.
 *
 * Contract:
 * - every failure of a call is an `ApiError` (codes and reasons of the API server; code 0 for
 *   no answer, reason `UnexpectedResponse` for answers that are not the expected JSON), or a
 *   `NoKindMatchError` when the server does not serve the kind, or a `LabelSelectorError`
 *   for an invalid label selector; nothing else is thrown;
 * - a namespaced kind needs a namespace (except for `list`): without one the call fails with
 *   an ApiError `BadRequest` before anything is sent;
 * - objects returned are fresh copies carrying `apiVersion` and `kind`; the objects passed in
 *   are never changed.
 */
export class Client {
  /** The transport requests go through. */
  readonly transport: KubeTransport;
  /** The REST mapper resolving kinds. */
  readonly restMapper: RestMapper;
  private readonly ownsTransport: boolean;
  private readonly fieldManager: string | undefined;
  private readonly requests: ResourceRequester;
  private readonly reads: CachedReads;

  /**
   * @throws Error when neither `kubeConfig` nor `transport` is given, or the kubeconfig has
   *   no current cluster.
   */
  constructor(options: ClientOptions) {
    if (options.transport) {
      this.transport = options.transport;
      this.ownsTransport = false;
    } else if (options.kubeConfig) {
      this.transport = new KubeTransport(options.kubeConfig);
      this.ownsTransport = true;
    } else {
      throw new Error(
        'Client needs a kubeConfig (e.g. loadKubeConfig()) or a transport; pass one in the options',
      );
    }
    this.restMapper = options.restMapper ?? new DiscoveryRestMapper(this.transport);
    this.fieldManager = options.fieldManager;
    this.requests = new ResourceRequester(this.transport, options);
    this.reads = new CachedReads(
      this.restMapper,
      options.cache,
      this.requests,
      options.listPageSize ?? 500,
    );
  }

  /**
   * Reads one object: from the cache when it has the kind (a missing object is then a
   * NotFound without asking the server), else from the API server.
   *
   * @throws {ApiError} `NotFound` when there is no such object; others as the server answers.
   */
  get<K extends ObjectKind>(
    kind: K,
    name: string,
    namespace?: string,
    options?: CallOptions,
  ): Promise<ObjectOf<K>>;
  get<T extends KubernetesObject = KubernetesObject>(
    apiVersion: string,
    kind: string,
    name: string,
    namespace?: string,
    options?: CallOptions,
  ): Promise<T>;
  get<T extends KubernetesObject = KubernetesObject>(
    ref: ObjectRef | KubernetesObject,
    options?: CallOptions,
  ): Promise<T>;
  async get<T extends KubernetesObject>(...args: GetArguments): Promise<T> {
    return this.getOf(false, args) as Promise<T>;
  }

  /**
   * Reads one object's metadata, as controller-runtime's client reads a
   * `PartialObjectMetadata`: from the cache when the kind is cached metadata-only (its
   * metadata-only informer synced: `owns`/`watches` with `{ onlyMetadata: true }`, or
   * `informerFor(apiVersion, kind, { metadataOnly: true })`; a missing object is then a
   * NotFound without asking the server), else from the API server, asking for
   * `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` (so the server sends no
   * spec or status; a server that ignores it sends the object, of which only the metadata is
   * kept). Takes the same arguments as {@link Client.get}.
   *
   * Guarantees: the answer is `{ apiVersion, kind, metadata }` with the kind's own apiVersion
   * and kind (not `meta.k8s.io/v1` `PartialObjectMetadata`, as controller-runtime and the
   * metadata-only informers give it), a fresh copy; read-your-writes holds as for `get` (a
   * cached answer waits for this process's own writes of the object to show in the
   * metadata-only informer, or goes to the server after the bound).
   *
   * @throws {ApiError} `NotFound` when there is no such object; others as the server answers.
   */
  getMetadata<K extends ObjectKind>(
    kind: K,
    name: string,
    namespace?: string,
    options?: CallOptions,
  ): Promise<PartialObjectMetadata>;
  getMetadata(
    apiVersion: string,
    kind: string,
    name: string,
    namespace?: string,
    options?: CallOptions,
  ): Promise<PartialObjectMetadata>;
  getMetadata(
    ref: ObjectRef | KubernetesObject,
    options?: CallOptions,
  ): Promise<PartialObjectMetadata>;
  async getMetadata(...args: GetArguments): Promise<PartialObjectMetadata> {
    return this.getOf(true, args) as Promise<PartialObjectMetadata>;
  }

  private getOf(metadataOnly: boolean, args: GetArguments): Promise<KubernetesObject> {
    const { ref, callOptions } = getArguments(...args);
    return this.reads.get(metadataOnly, ref, callOptions);
  }

  /**
   * Lists objects of a kind. From the cache when it has the kind (label selector applied
   * by the cache, field selector evaluated on the objects) unless `limit` or `continue` ask
   * for server-side paging. From the API server, `list` pages through the whole collection
   * (`listPageSize` per request, restarting once without paging if a continue token expires)
   * and returns every item; with `limit`/`continue` it returns one page with its
   * `metadata.continue`. A label selector that selects nothing returns no items without a
   * request.
   *
   * @throws {ApiError} as the server answers (`Gone` for an expired `continue` given by the caller).
   * @throws {LabelSelectorError} for an invalid label selector.
   */
  list<K extends ObjectKind>(kind: K, options?: ListOptions): Promise<ObjectList<ObjectOf<K>>>;
  list<T extends KubernetesObject = KubernetesObject>(
    apiVersion: string,
    kind: string,
    options?: ListOptions,
  ): Promise<ObjectList<T>>;
  async list<T extends KubernetesObject>(
    kindOrApiVersion: string | ObjectKind,
    second?: string | ListOptions,
    third: ListOptions = {},
  ): Promise<ObjectList<T>> {
    return this.listOf<T>(false, kindOrApiVersion, second, third);
  }

  /**
   * Lists the metadata of a kind's objects, as controller-runtime's client lists
   * `PartialObjectMetadataList`: from the cache when the kind is cached metadata-only (see
   * {@link Client.getMetadata}; filtered as `list` filters), else from the API server asking
   * for `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`, paged as `list`
   * pages. Takes the same arguments and options as {@link Client.list}.
   *
   * Guarantees: every item is `{ apiVersion, kind, metadata }` with the kind's own apiVersion
   * and kind, a fresh copy; the list's kind is `<Kind>List`; read-your-writes holds as for
   * `list`.
   *
   * @throws {ApiError} as the server answers (`Gone` for an expired `continue` given by the caller).
   * @throws {LabelSelectorError} for an invalid label selector.
   */
  listMetadata(kind: ObjectKind, options?: ListOptions): Promise<ObjectList<PartialObjectMetadata>>;
  listMetadata(
    apiVersion: string,
    kind: string,
    options?: ListOptions,
  ): Promise<ObjectList<PartialObjectMetadata>>;
  async listMetadata(
    kindOrApiVersion: string | ObjectKind,
    second?: string | ListOptions,
    third: ListOptions = {},
  ): Promise<ObjectList<PartialObjectMetadata>> {
    return this.listOf<PartialObjectMetadata>(true, kindOrApiVersion, second, third);
  }

  private listOf<T extends KubernetesObject>(
    metadataOnly: boolean,
    kindOrApiVersion: string | ObjectKind,
    second: string | ListOptions | undefined,
    third: ListOptions,
  ): Promise<ObjectList<T>> {
    const byKind = typeof kindOrApiVersion !== 'string';
    const apiVersion = byKind ? kindOrApiVersion.apiVersion : kindOrApiVersion;
    const kind = byKind ? kindOrApiVersion.kind : typeof second === 'string' ? second : '';
    const options = byKind ? (typeof second === 'object' ? second : {}) : third;
    return this.reads.list<T>(metadataOnly, apiVersion, kind, options);
  }

  /**
   * Creates `obj` (`metadata.name` or `generateName` set) and returns the object as stored.
   *
   * @throws {ApiError} `AlreadyExists` when the name is taken, `Invalid` with `details.causes`
   *   when the server rejects the object, and others as the server answers.
   */
  async create<T extends KubernetesObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    const { descriptor, namespace } = await writeTarget(this.restMapper, obj, 'create', false);
    const body = await this.requests.send(descriptor, 'create', 'POST', {
      ...(namespace ? { namespace } : {}),
      query: this.writeQuery(options),
      body: obj,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return typedObject(body, descriptor) as T;
  }

  /**
   * Replaces the object (PUT) and returns it as stored. `metadata.resourceVersion` makes the
   * write conditional: a stale one fails with a Conflict. The status is not changed for kinds
   * with a status subresource.
   *
   * @throws {ApiError} `Conflict`, `NotFound`, `Invalid`, and others as the server answers.
   */
  async update<T extends KubernetesObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(obj, undefined, options);
  }

  /**
   * Replaces the status of the object (PUT to its `status` subresource); the rest of `obj` is
   * ignored by the server.
   *
   * @throws {ApiError} `NotFound` also when the kind has no status subresource.
   */
  async updateStatus<T extends KubernetesObject>(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.put(obj, 'status', options);
  }

  /**
   * Patches the object named by `target` and returns it as stored. `patch` is a JSON value
   * (or its serialised text): an object for `merge`, `strategic` and `apply`, an array of
   * operations for `json`. `apply` needs a field manager (the option or the client's);
   * `force` takes over conflicting fields.
   *
   * @throws {ApiError} `UnsupportedMediaType` when the server does not accept the patch type
   *   for the resource (e.g. `strategic` on custom resources, `apply` on servers without
   *   server-side apply), and others as the server answers; `BadRequest` before sending
   *   for an apply without field manager or a JSON patch that is not an array.
   */
  async patch<T extends KubernetesObject = KubernetesObject>(
    target: ObjectRef | T,
    patch: unknown,
    type: PatchType,
    options: PatchOptions = {},
  ): Promise<T> {
    return this.sendPatch<T>(target, patch, type, undefined, options);
  }

  /** Like {@link Client.patch}, on the object's `status` subresource. */
  async patchStatus<T extends KubernetesObject = KubernetesObject>(
    target: ObjectRef | T,
    patch: unknown,
    type: PatchType,
    options: PatchOptions = {},
  ): Promise<T> {
    return this.sendPatch<T>(target, patch, type, 'status', options);
  }

  /**
   * Server-side apply of `obj` (the fields this manager wants to own): `patch(obj, obj,
   * 'apply', options)`.
   */
  async apply<T extends KubernetesObject>(obj: T, options: PatchOptions = {}): Promise<T> {
    return this.sendPatch<T>(obj, obj, 'apply', undefined, options);
  }

  /**
   * Deletes the object named by `target`. Resolves once the server accepted the delete (the
   * object may linger while finalizers run).
   *
   * @throws {ApiError} `NotFound` when it does not exist (see `ignoreNotFound`), `Conflict`
   *   when a precondition fails, and others as the server answers.
   */
  async delete(
    target: ObjectRef | KubernetesObject,
    options: ClientDeleteOptions = {},
  ): Promise<void> {
    const ref = refOf(target, 'delete');
    const descriptor = await this.restMapper.resourceFor(ref.apiVersion, ref.kind);
    const namespace = namespaceFor(descriptor, ref.namespace, ref.name, 'delete');
    await this.requests.send(descriptor, 'delete', 'DELETE', {
      ...(namespace ? { namespace } : {}),
      name: ref.name,
      body: deleteOptionsBody(options),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Deletes every object of a kind in a namespace (or, for cluster-scoped kinds, the
   * cluster) that matches the selectors: one `deletecollection` request. A label selector
   * that selects nothing deletes nothing and sends nothing.
   *
   * @throws {ApiError} `BadRequest` before sending when a namespaced kind has no namespace;
   *   others as the server answers.
   */
  async deleteAllOf(
    apiVersion: string,
    kind: string,
    options: DeleteAllOfOptions = {},
  ): Promise<void> {
    const descriptor = await this.restMapper.resourceFor(apiVersion, kind);
    if (descriptor.namespaced && !options.namespace) {
      throw badRequestError(
        `deleteAllOf ${kind} needs a namespace: ${kind} is namespaced; pass options.namespace`,
      );
    }
    const selector =
      options.labelSelector === undefined ? undefined : toSelector(options.labelSelector);
    if (selector?.isNothing()) return;
    const fieldText =
      options.fieldSelector === undefined
        ? undefined
        : fieldSelectorToString(options.fieldSelector);
    await this.requests.send(descriptor, 'deletecollection', 'DELETE', {
      ...(descriptor.namespaced && options.namespace ? { namespace: options.namespace } : {}),
      query: {
        labelSelector: selector && !selector.isEverything() ? selector.toString() : undefined,
        fieldSelector: fieldText || undefined,
      },
      body: deleteOptionsBody(options),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /** Closes the transport's idle connections when the client created the transport itself. */
  close(): void {
    if (this.ownsTransport) this.transport.close();
  }

  private async put<T extends KubernetesObject>(
    obj: T,
    subresource: string | undefined,
    options: WriteOptions,
  ): Promise<T> {
    const verb = subresource ? 'update status of' : 'update';
    const { descriptor, namespace, name } = await writeTarget(this.restMapper, obj, verb, true);
    const body = await this.requests.send(descriptor, 'update', 'PUT', {
      ...(namespace ? { namespace } : {}),
      name,
      ...(subresource ? { subresource } : {}),
      query: this.writeQuery(options),
      body: obj,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return typedObject(body, descriptor) as T;
  }

  private async sendPatch<T extends KubernetesObject>(
    target: ObjectRef | KubernetesObject,
    patch: unknown,
    type: PatchType,
    subresource: string | undefined,
    options: PatchOptions,
  ): Promise<T> {
    const contentType = patchContentTypes[type];
    if (contentType === undefined) {
      throw badRequestError(
        `unknown patch type ${JSON.stringify(type)}; use 'merge', 'json', 'strategic' or 'apply'`,
      );
    }
    const ref = refOf(target, 'patch');
    if (type === 'json' && typeof patch !== 'string' && !Array.isArray(patch)) {
      throw badRequestError(
        `a JSON patch is an array of operations such as [{"op": "replace", "path": "/spec/replicas", "value": 2}]; got ${typeof patch}. Use patch type 'merge' to send an object`,
      );
    }
    if (type !== 'json' && typeof patch !== 'string' && !isJsonObject(patch)) {
      throw badRequestError(
        `a ${type} patch is a JSON object; got ${Array.isArray(patch) ? 'an array (use patch type json for operations)' : typeof patch}`,
      );
    }
    const fieldManager = options.fieldManager ?? this.fieldManager;
    if (type === 'apply' && !fieldManager) {
      throw badRequestError(
        'server-side apply needs a field manager: pass options.fieldManager or set fieldManager in the Client options',
      );
    }
    if (options.force && type !== 'apply') {
      throw badRequestError(`force is only valid for server-side apply, not a ${type} patch`);
    }
    const descriptor = await this.restMapper.resourceFor(ref.apiVersion, ref.kind);
    const namespace = namespaceFor(descriptor, ref.namespace, ref.name, 'patch');
    const body = await this.requests.send(descriptor, 'patch', 'PATCH', {
      ...(namespace ? { namespace } : {}),
      name: ref.name,
      ...(subresource ? { subresource } : {}),
      query: {
        ...this.writeQuery({ ...options, ...(fieldManager ? { fieldManager } : {}) }),
        force: options.force ? 'true' : undefined,
      },
      body: patch,
      contentType,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return typedObject(body, descriptor) as T;
  }

  private writeQuery(options: WriteOptions): Record<string, string | undefined> {
    return {
      dryRun: options.dryRun ? 'All' : undefined,
      fieldManager: options.fieldManager ?? this.fieldManager,
    };
  }
}

/** The `metav1.DeleteOptions` body of a delete, undefined when no option is set. */
function deleteOptionsBody(options: ClientDeleteOptions): ApiDeleteOptions | undefined {
  const body: ApiDeleteOptions = {};
  if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
  if (options.preconditions) body.preconditions = options.preconditions;
  if (options.gracePeriodSeconds !== undefined)
    body.gracePeriodSeconds = options.gracePeriodSeconds;
  if (options.dryRun) body.dryRun = ['All'];
  if (Object.keys(body).length === 0) return undefined;
  return { apiVersion: 'v1', kind: 'DeleteOptions', ...body };
}
