import { StatusError } from '../../api/status-error.js';

/** What a row of a Table carries besides its cells (`includeObject`). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** A request for a `meta.k8s.io` Table, with its `TableOptions`. */
export interface TableRequest {
  /** `Metadata` (the default): a PartialObjectMetadata; `Object`: the object; `None`: null. */
  includeObject: IncludeObject;
}

/**
 * The Table a request asks for, or undefined when its Accept header asks for none
 * (`application/json;as=Table;v=v1;g=meta.k8s.io`, as `kubectl get` sends). The
 * `includeObject` query parameter is read only then, as kube-apiserver does (its value is
 * case-sensitive; empty means `Metadata`). Throws a 400 StatusError with kube-apiserver's
 * message for any other value.
 */
export function tableRequestOf(
  accept: string | undefined,
  query: URLSearchParams,
): TableRequest | undefined {
  if (accept === undefined || !/as=Table/.test(accept)) return undefined;
  const value = query.get('includeObject') ?? '';
  if (value === '' || value === 'Metadata') return { includeObject: 'Metadata' };
  if (value === 'Object' || value === 'None') return { includeObject: value };
  throw StatusError.badRequest(
    `Unable to convert to Table as requested: includeObject: Invalid value: ${JSON.stringify(value)}: must be 'Metadata', 'Object', 'None', or empty`,
  );
}
