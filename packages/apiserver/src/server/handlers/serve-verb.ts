import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PatchType } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import { patchOptionsInvalid } from '../../apply/index.js';
import { patchTypeFromContentType } from '../../patch/index.js';
import { apiVersionOf, type ResourceType } from '../../registry/resource-type.js';
import { readDeleteOptions } from '../http/delete-options.js';
import { readRequestBody } from '../http/read-request-body.js';
import { sendJson, sendRaw } from '../http/responses.js';
import { toTable } from '../tables/table.js';
import type { TableRequest } from '../tables/table-request.js';
import { listFilter, presentJson, sendList } from './list-response.js';
import {
  asPartialObjectMetadata,
  partialObjectMetadataFormOf,
  partialObjectMetadataMismatch,
} from './partial-object-metadata.js';
import type { RequestContext } from './resource-service.js';
import { scaleOf, updateScale } from './scale-subresource.js';
import { serverSideApply } from './server-side-apply.js';
import { serveWatch, type WatchServer } from './watch-response.js';

/** The resource a request addresses, as the router found it. */
export interface VerbTarget {
  type: ResourceType;
  namespace: string;
  name: string;
  subresource: string;
}

/** What {@link serveVerb} needs of the server. */
export interface VerbServer extends WatchServer {
  /** The largest request body accepted. */
  maxBodyBytes: number;
}

/** The RBAC verb of a request: its method, whether it names an object, whether it watches. */
export function verbOf(method: string, name: string, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : name ? 'get' : 'list';
    case 'POST':
      return name ? 'post-item' : 'create';
    case 'PUT':
      return name ? 'update' : 'put-collection';
    case 'PATCH':
      return name ? 'patch' : 'patch-collection';
    case 'DELETE':
      return name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

/**
 * Answers one resource request whose verb was allowed (authentication, authorization, the
 * verb check and fault injection are done): get (JSON, Table or the scale subresource),
 * list, watch, create, update, patch (with `/scale`), delete and deletecollection, through
 * {@link ResourceService}, with the warnings of `context` as `Warning` headers. With a
 * metadata-only Accept header (see {@link partialObjectMetadataFormOf}), get, list and watch answer
 * `meta.k8s.io/v1` PartialObjectMetadata (List), and 406 when the form does not fit the verb.
 */
export async function serveVerb(
  verb: string,
  req: IncomingMessage,
  res: ServerResponse,
  route: VerbTarget,
  query: URLSearchParams,
  context: RequestContext,
  table: TableRequest | undefined,
  server: VerbServer,
): Promise<void> {
  const { type, namespace, name, subresource } = route;
  const form = partialObjectMetadataFormOf(req.headers.accept);
  const warnings = context.warnings ?? [];
  switch (verb) {
    case 'get': {
      const stored = server.resources.get(type, namespace, name);
      if (subresource === 'scale') return sendJson(res, 200, scaleOf(type, stored.object));
      // Objects stored at another version than the request's go through the CRD's webhook.
      if (form !== undefined) {
        const mismatch = partialObjectMetadataMismatch(form, type, false);
        if (mismatch !== undefined) throw mismatch;
        const object = await server.resources.served(type, stored.object, 'read');
        return sendJson(res, 200, asPartialObjectMetadata(object));
      }
      if (type.conversionWebhook !== undefined || table) {
        const object = await server.resources.served(type, stored.object, 'read');
        if (!table) return sendJson(res, 200, object);
        const rows = toTable(type, [object], String(stored.resourceVersion), {}, table);
        return sendJson(res, 200, rows);
      }
      return sendRaw(res, 200, presentJson(type, stored.object, stored.json()));
    }
    case 'list': {
      const mismatch = form && partialObjectMetadataMismatch(form, type, true);
      if (mismatch) throw mismatch;
      return await sendList(res, server.resources, type, namespace, query, table, form);
    }
    case 'watch':
      return serveWatch(req, res, type, namespace, name, query, table, server, form);
    case 'create': {
      const body = await readRequestBody(server.maxBodyBytes, req);
      if (subresource)
        throw StatusError.methodNotAllowed(
          'the server does not allow this method on the requested resource',
        );
      const created = await server.resources.create(type, namespace, body, context);
      return sendJson(res, 201, await server.resources.served(type, created, 'write'), warnings);
    }
    case 'update': {
      const body = await readRequestBody(server.maxBodyBytes, req);
      if (subresource === 'scale')
        return sendJson(
          res,
          200,
          await updateScale(
            server.resources,
            type,
            namespace,
            name,
            { kind: 'update', body },
            context,
          ),
        );
      const updated = await server.resources.update(
        type,
        namespace,
        name,
        body,
        subresource,
        context,
      );
      return sendJson(res, 200, await server.resources.served(type, updated, 'write'), warnings);
    }
    case 'patch': {
      const patchType = patchTypeFromContentType(req.headers['content-type'] ?? '') as PatchType;
      const body = await readRequestBody(server.maxBodyBytes, req, true);
      if (subresource === 'scale') {
        // A Scale has no lists, so a strategic merge patch of it is a merge patch.
        return sendJson(
          res,
          200,
          await updateScale(
            server.resources,
            type,
            namespace,
            name,
            { kind: 'patch', patchType: patchType === 'json' ? 'json' : 'merge', patch: body },
            context,
          ),
        );
      }
      if (patchType !== 'apply' && context.force) {
        throw patchOptionsInvalid('force', 'Forbidden: may not be specified for non-apply patch');
      }
      if (patchType === 'apply') {
        const applied = await serverSideApply(
          server.resources,
          type,
          namespace,
          name,
          body,
          subresource,
          context,
        );
        const status = applied.created ? 201 : 200;
        const answer = await server.resources.served(type, applied.object, 'write');
        return sendJson(res, status, answer, warnings);
      }
      const patched = await server.resources.patch(
        type,
        namespace,
        name,
        patchType,
        body,
        subresource,
        context,
      );
      return sendJson(res, 200, await server.resources.served(type, patched, 'write'), warnings);
    }
    case 'delete': {
      const options = await readDeleteOptions(server.maxBodyBytes, req, query);
      const deleted = await server.resources.delete(type, namespace, name, options, context);
      return sendJson(res, 200, await server.resources.served(type, deleted, 'write'));
    }
    case 'deletecollection': {
      const options = await readDeleteOptions(server.maxBodyBytes, req, query);
      const deleted = await server.resources.deleteCollection(
        type,
        listFilter(type, namespace, query),
        options,
        context,
      );
      return sendJson(res, 200, {
        apiVersion: apiVersionOf(type),
        kind: type.listKind,
        metadata: { resourceVersion: String(server.store.currentRevision()) },
        items: await Promise.all(deleted.map((o) => server.resources.served(type, o, 'write'))),
      });
    }
    default:
      throw StatusError.methodNotAllowed(
        `the server does not allow this method on the requested resource`,
      );
  }
}
