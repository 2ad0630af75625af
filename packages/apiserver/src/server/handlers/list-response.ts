import type { ServerResponse } from 'node:http';
import { type KubernetesObject, LabelSelectorError, parseLabelSelector } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import { ConversionError } from '../../conversion/conversion-error.js';
import type { Json } from '../../json/json.js';
import { apiVersionOf, type ResourceType } from '../../registry/resource-type.js';
import { fieldSelectorFromQuery } from '../../store/field-selector.js';
import type { StoredObject } from '../../store/object-store.js';
import { sendJson } from '../http/responses.js';
import { toTable } from '../tables/table.js';
import type { TableRequest } from '../tables/table-request.js';
import { checkFieldSelector } from './list-page.js';
import {
  asPartialObjectMetadataList,
  type PartialObjectMetadataForm,
} from './partial-object-metadata.js';
import type { ListFilter, ResourceService } from './resource-service.js';
import { listConversionFailure, presentAt } from './version-conversion.js';

/** The namespace, label and field selector of a list or watch, from its query: 400 when one does not parse. */
export function listFilter(
  type: ResourceType,
  namespace: string,
  query: URLSearchParams,
): ListFilter {
  const filter: ListFilter = {};
  if (namespace) filter.namespace = namespace;
  const labelSelector = query.get('labelSelector');
  if (labelSelector) {
    try {
      filter.labels = parseLabelSelector(labelSelector);
    } catch (error) {
      if (LabelSelectorError.isInstance(error))
        throw StatusError.badRequest(`unable to parse requirement: ${error.message}`);
      throw error;
    }
  }
  const fieldSelector = query.get('fieldSelector');
  if (fieldSelector) {
    filter.fields = fieldSelectorFromQuery(fieldSelector);
    checkFieldSelector(type, filter.fields);
  }
  return filter;
}

/**
 * Answers a LIST: a page as a `Table` (`kubectl get`), as a `PartialObjectMetadataList`
 * (`form`), or as JSON built from each object's cached bytes, written as its parts in one
 * vectored write.
 */
export async function sendList(
  res: ServerResponse,
  resources: ResourceService,
  type: ResourceType,
  namespace: string,
  query: URLSearchParams,
  table: TableRequest | undefined,
  form?: PartialObjectMetadataForm,
): Promise<void> {
  const limit = query.get('limit');
  const page = resources.list(type, {
    ...listFilter(type, namespace, query),
    ...(limit ? { limit: Number(limit) } : {}),
    ...(query.get('continue') ? { continueToken: query.get('continue') ?? '' } : {}),
    ...(query.has('resourceVersion')
      ? { resourceVersion: query.get('resourceVersion') ?? '' }
      : {}),
    ...(query.has('resourceVersionMatch')
      ? { resourceVersionMatch: query.get('resourceVersionMatch') ?? '' }
      : {}),
  });
  const metadata: Json = { resourceVersion: String(page.resourceVersion) };
  // kube-apiserver writes an empty `continue` into the (unstructured) lists of custom resources.
  if (page.continueToken || type.custom) metadata.continue = page.continueToken ?? '';
  if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
  const converted = await convertedItems(resources, type, page.items);
  if (form === 'PartialObjectMetadataList') {
    const items = converted ?? page.items.map((s) => presentAt(type, s.object));
    sendJson(res, 200, asPartialObjectMetadataList(metadata, items));
    return;
  }
  if (table) {
    const items = converted ?? page.items.map((s) => presentAt(type, s.object));
    const extra = page.continueToken ? { continue: page.continueToken } : {};
    sendJson(res, 200, toTable(type, items, String(page.resourceVersion), extra, table));
    return;
  }
  if (converted !== undefined) {
    sendJson(res, 200, {
      kind: type.listKind,
      apiVersion: apiVersionOf(type),
      metadata,
      items: converted,
    });
    return;
  }
  // The body is made of each object's cached UTF-8 bytes: no re-encoding.
  const head = Buffer.from(
    `${JSON.stringify({ kind: type.listKind, apiVersion: apiVersionOf(type), metadata }).slice(0, -1)},"items":[`,
  );
  const comma = Buffer.from(',');
  const parts: Buffer[] = [head];
  const apiVersion = apiVersionOf(type);
  page.items.forEach((stored, index) => {
    if (index > 0) parts.push(comma);
    parts.push(
      stored.object.apiVersion === apiVersion
        ? stored.bytes()
        : Buffer.from(JSON.stringify(presentAt(type, stored.object))),
    );
  });
  parts.push(Buffer.from(']}'));
  let length = 0;
  for (const part of parts) length += part.length;
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Content-Length': length,
    'Cache-Control': 'no-cache, private',
  });
  // Written as the parts (one vectored write), not concatenated: a list of thousands of
  // objects would otherwise allocate its whole size again outside the heap on every request,
  // and that memory makes V8 collect garbage while other requests wait.
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
}

/**
 * The objects of a page converted to `type`'s version by the CRD's conversion webhook, one
 * call per object as kube-apiserver's storage decodes each (objects already at that version
 * pass as they are); undefined when the CRD has no conversion webhook.
 *
 * @throws {StatusError} 500 `StorageReadError` naming every object that could not be
 *   converted (see {@link listConversionFailure}).
 */
async function convertedItems(
  resources: ResourceService,
  type: ResourceType,
  items: readonly StoredObject[],
): Promise<KubernetesObject[] | undefined> {
  const webhook = type.conversionWebhook;
  if (webhook === undefined) return undefined;
  const desired = apiVersionOf(type);
  const outcomes = await Promise.allSettled(
    items.map((stored) => resources.converter.convert(webhook, stored.object, desired)),
  );
  const failures: Array<{ object: KubernetesObject; error: ConversionError }> = [];
  const converted: KubernetesObject[] = [];
  outcomes.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') converted.push(outcome.value);
    else if (ConversionError.isInstance(outcome.reason))
      failures.push({ object: (items[index] as StoredObject).object, error: outcome.reason });
    else throw outcome.reason;
  });
  if (failures.length > 0) throw listConversionFailure(type, failures);
  return converted;
}

/** An object's JSON as served at `type`'s version: `json` itself when already so. */
export function presentJson(type: ResourceType, object: KubernetesObject, json: string): string {
  return object.apiVersion === apiVersionOf(type) ? json : JSON.stringify(presentAt(type, object));
}
