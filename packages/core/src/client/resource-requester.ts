import type { KubernetesObject, PartialObjectMetadata } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { metadataListAccept } from '../cache/metadata-only.js';
import {
  apiVersionOfDescriptor,
  type ResourceDescriptor,
  resourcePath,
} from '../kinds/resource-descriptor.js';
import type {
  KubeTransport,
  TransportRequest,
  TransportResponse,
} from '../transport/kube-transport.js';
import {
  type ApiRequestContext,
  apiErrorFromFailure,
  apiErrorFromResponse,
  unexpectedResponseError,
} from './api-error-from-response.js';
import type { ClientOptions, ClientVerb, ObjectList } from './client.js';
import { sendReportedWrite } from './reported-write.js';

/** A copy of `body` with apiVersion and kind set (list items often lack them). */
export function typedObject(body: unknown, descriptor: ResourceDescriptor): KubernetesObject {
  const object = body as KubernetesObject;
  return {
    ...object,
    apiVersion: object.apiVersion || apiVersionOfDescriptor(descriptor),
    kind: object.kind || descriptor.kind,
  };
}

/**
 * The `PartialObjectMetadata` of an object as the client returns it: the object's `metadata`
 * (from a PartialObjectMetadata answer, or from the whole object of a server that ignored the
 * Accept header) under the resource's apiVersion and kind, as controller-runtime's metadata
 * client and core's metadata-only informers give it.
 */
export function partialObjectMetadata(
  body: unknown,
  descriptor: ResourceDescriptor,
): PartialObjectMetadata {
  const metadata = (body as KubernetesObject | undefined)?.metadata;
  return {
    apiVersion: apiVersionOfDescriptor(descriptor),
    kind: descriptor.kind,
    metadata: isJsonObject(metadata) ? metadata : {},
  };
}

/** A request for one resource: where, and what is sent. */
export interface ResourceRequest {
  namespace?: string;
  name?: string;
  subresource?: string;
  query?: TransportRequest['query'];
  body?: unknown;
  contentType?: string;
  /** The Accept header (default: JSON). */
  accept?: string;
  signal?: AbortSignal;
}

/** The verbs whose writes read-your-writes tracks (one object each). */
const reportedVerbs: ReadonlySet<ClientVerb> = new Set(['create', 'update', 'patch', 'delete']);

/**
 * Sends the requests of a {@link Client} for one resource and checks the answers: reports
 * each request to `onRequest`, applies the client's timeout, and turns every failure into an
 * `ApiError` (code 0 when no answer arrived, `UnexpectedResponse` for an answer that is not
 * the JSON the call expects).
 */
export class ResourceRequester {
  constructor(
    /** The transport requests go through. */
    readonly transport: KubeTransport,
    /** `onRequest`, `timeoutMs`, and the `cache` writes are reported to (see {@link sendReportedWrite}). */
    private readonly options: Pick<ClientOptions, 'onRequest' | 'timeoutMs' | 'cache'>,
  ) {}

  /**
   * Reads one page of a list: its items (typed), `resourceVersion`, `continue` and
   * `remainingItemCount`. With `metadataOnly` it asks for a PartialObjectMetadataList (plain
   * JSON as the fallback) and gives each item as {@link partialObjectMetadata}, the list as
   * `<Kind>List`.
   */
  async listPage<T extends KubernetesObject>(
    descriptor: ResourceDescriptor,
    namespace: string | undefined,
    query: TransportRequest['query'],
    signal: AbortSignal | undefined,
    metadataOnly = false,
  ): Promise<ObjectList<T>> {
    const body = await this.send(
      descriptor,
      'list',
      'GET',
      {
        ...(namespace ? { namespace } : {}),
        query,
        ...(metadataOnly ? { accept: metadataListAccept } : {}),
        ...(signal ? { signal } : {}),
      },
      'list',
    );
    const list = body as Record<string, unknown>;
    const metadata = isJsonObject(list.metadata) ? list.metadata : {};
    const items = (list.items as unknown[]).map(
      (item) =>
        (metadataOnly
          ? partialObjectMetadata(item, descriptor)
          : typedObject(item, descriptor)) as T,
    );
    const result: ObjectList<T> = {
      apiVersion: apiVersionOfDescriptor(descriptor),
      kind: typeof list.kind === 'string' && !metadataOnly ? list.kind : `${descriptor.kind}List`,
      metadata: {},
      items,
    };
    if (typeof metadata.resourceVersion === 'string') {
      result.metadata.resourceVersion = metadata.resourceVersion;
    }
    if (typeof metadata.continue === 'string' && metadata.continue !== '') {
      result.metadata.continue = metadata.continue;
    }
    if (typeof metadata.remainingItemCount === 'number') {
      result.metadata.remainingItemCount = metadata.remainingItemCount;
    }
    return result;
  }

  /**
   * Sends one request and returns its JSON body: an object (`expect` `object`), a list with
   * an `items` array (`list`), or anything for deletes. Creates, updates, patches and
   * deletes are reported to the cache, when there is one (see {@link sendReportedWrite}).
   */
  async send(
    descriptor: ResourceDescriptor,
    verb: ClientVerb,
    method: TransportRequest['method'],
    request: ResourceRequest,
    expect: 'object' | 'list' = 'object',
  ): Promise<unknown> {
    const exchange = () => this.exchange(descriptor, verb, method, request, expect);
    const cache = this.options.cache;
    if (cache === undefined || !reportedVerbs.has(verb)) return exchange();
    return sendReportedWrite(cache, descriptor, verb === 'delete', request, exchange);
  }

  private async exchange(
    descriptor: ResourceDescriptor,
    verb: ClientVerb,
    method: TransportRequest['method'],
    request: ResourceRequest,
    expect: 'object' | 'list',
  ): Promise<unknown> {
    const path = resourcePath(descriptor, request.namespace, request.name, request.subresource);
    const resource = request.subresource
      ? `${descriptor.plural}/${request.subresource}`
      : descriptor.plural;
    const context: ApiRequestContext = {
      verb,
      method,
      path,
      group: descriptor.group,
      resource: descriptor.plural,
      ...(request.subresource ? { subresource: request.subresource } : {}),
      ...(request.namespace ? { namespace: request.namespace } : {}),
      ...(request.name ? { name: request.name } : {}),
      ...(request.contentType ? { contentType: request.contentType } : {}),
      user: this.transport.userName,
    };
    this.options.onRequest?.(verb, resource, {
      verb,
      group: descriptor.group,
      version: descriptor.version,
      resource: descriptor.plural,
      ...(request.subresource ? { subresource: request.subresource } : {}),
      ...(request.namespace ? { namespace: request.namespace } : {}),
      ...(request.name ? { name: request.name } : {}),
    });
    let response: TransportResponse;
    try {
      response = await this.transport.request({
        method,
        path,
        ...(request.query ? { query: request.query } : {}),
        ...(request.body !== undefined ? { body: request.body } : {}),
        ...(request.contentType ? { contentType: request.contentType } : {}),
        ...(request.accept ? { accept: request.accept } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
        ...(this.options.timeoutMs !== undefined ? { timeoutMs: this.options.timeoutMs } : {}),
      });
    } catch (error) {
      throw apiErrorFromFailure(error, context, this.transport.server.toString());
    }
    if (response.status < 200 || response.status >= 300) {
      throw apiErrorFromResponse(response, context);
    }
    let body: unknown;
    try {
      body = response.text === '' ? undefined : JSON.parse(response.text);
    } catch {
      throw unexpectedResponseError(response, context, 'a JSON object');
    }
    if (method === 'DELETE') return body;
    if (!isJsonObject(body)) throw unexpectedResponseError(response, context, 'a JSON object');
    if (body.kind === 'Status' && body.status === 'Failure') {
      throw apiErrorFromResponse({ ...response, status: 500 }, context);
    }
    if (expect === 'list' && !Array.isArray(body.items)) {
      throw unexpectedResponseError(response, context, 'a list with an items array');
    }
    return body;
  }
}
