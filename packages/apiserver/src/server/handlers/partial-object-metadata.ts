import type { KubernetesObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import type { Json } from '../../json/json.js';
import type { ResourceType } from '../../registry/resource-type.js';

/**
 * The metadata-only form a request asks for in its Accept header (client-go's metadata
 * client, controller-runtime's `OnlyMetadata` watches): `PartialObjectMetadata` for a get
 * or a watch, `PartialObjectMetadataList` for a list.
 */
export type PartialObjectMetadataForm = 'PartialObjectMetadata' | 'PartialObjectMetadataList';

const metaGroup = 'meta.k8s.io';
const metaVersions = new Set(['v1', 'v1beta1']);

/**
 * The metadata-only form the Accept header asks for, or undefined. As kube-apiserver
 * negotiates, the first acceptable media range wins: a JSON range
 * `application/json;as=PartialObjectMetadata[List];g=meta.k8s.io;v=v1` (or `v1beta1`) asks
 * for that form; a plain `application/json` (or `*` range) before it asks for the object;
 * ranges this server does not serve (protobuf, other `as=` targets) are skipped.
 */
export function partialObjectMetadataFormOf(
  accept: string | undefined,
): PartialObjectMetadataForm | undefined {
  if (accept === undefined || !accept.includes('PartialObjectMetadata')) return undefined;
  for (const range of accept.split(',')) {
    const [mediaType = '', ...parameters] = range.split(';').map((part) => part.trim());
    if (mediaType !== 'application/json' && mediaType !== '*/*' && mediaType !== 'application/*')
      continue;
    const values = new Map<string, string>();
    for (const parameter of parameters) {
      const equals = parameter.indexOf('=');
      if (equals > 0)
        values.set(parameter.slice(0, equals).trim(), parameter.slice(equals + 1).trim());
    }
    const as = values.get('as');
    if (as === undefined) return undefined;
    if (
      (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') &&
      values.get('g') === metaGroup &&
      metaVersions.has(values.get('v') ?? '')
    )
      return as;
  }
  return undefined;
}

/** An object's `meta.k8s.io/v1` PartialObjectMetadata: its kind, apiVersion and metadata only. */
export function asPartialObjectMetadata(object: KubernetesObject): Json {
  return {
    kind: 'PartialObjectMetadata',
    apiVersion: `${metaGroup}/v1`,
    metadata: (object.metadata ?? {}) as Json,
  };
}

/** A list's `meta.k8s.io/v1` PartialObjectMetadataList: the list's metadata and each item's. */
export function asPartialObjectMetadataList(
  listMetadata: Json,
  items: readonly KubernetesObject[],
): Json {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion: `${metaGroup}/v1`,
    metadata: listMetadata,
    items: items.map(asPartialObjectMetadata),
  };
}

/** kube-apiserver's name of the Go type it serves `type` (and its list) as, for its 406 messages. */
function goTypeOf(type: ResourceType, list: boolean): string {
  if (type.custom) return list ? '*unstructured.UnstructuredList' : '*unstructured.Unstructured';
  const group = type.group === '' ? 'core' : (type.group.split('.')[0] ?? type.group);
  return `*${group}.${type.kind}${list ? 'List' : ''}`;
}

/**
 * The 406 kube-apiserver answers when the form does not fit the verb: a list asked of one
 * object (`get` with `PartialObjectMetadataList`), or an object asked of a list (`list` with
 * `PartialObjectMetadata`). Undefined when the form fits.
 */
export function partialObjectMetadataMismatch(
  form: PartialObjectMetadataForm,
  type: ResourceType,
  list: boolean,
): StatusError | undefined {
  if (list && form === 'PartialObjectMetadata')
    return new StatusError(
      406,
      'NotAcceptable',
      `you requested PartialObjectMetadata, but the requested object is a list (${goTypeOf(type, true)})`,
    );
  if (!list && form === 'PartialObjectMetadataList')
    return new StatusError(
      406,
      'NotAcceptable',
      `you requested PartialObjectMetadataList, but the requested object is not a list (${goTypeOf(type, false)})`,
    );
  return undefined;
}
