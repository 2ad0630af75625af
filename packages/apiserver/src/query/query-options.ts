import type { DeletionPropagation } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { StatusError } from '../api/status-error.js';
import { type GoParse, parseGoInt64, parseGoUint64 } from './go-strconv.js';
import { queryBool } from './query-bool.js';

/** How unknown and duplicate fields of a write are treated (`fieldValidation`). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/**
 * The query parameters of a resource request once kube-apiserver's parameter codec and option
 * validation accepted them. Parameters a verb does not take are ignored, as kube ignores them.
 */
export interface QueryOptions {
  /** `watch` (any value but `0`/`false`), or false for verbs other than GET. */
  watch: boolean;
  /** `dryRun=All`. */
  dryRun: boolean;
  /** `fieldValidation`; `Warn` when absent or empty, as kube-apiserver's default. */
  fieldValidation: FieldValidation;
  /** `fieldManager`, when given. */
  fieldManager?: string;
  /** DELETE's `gracePeriodSeconds`, when given. */
  gracePeriodSeconds?: number;
  /** DELETE's deprecated `orphanDependents`, when given. */
  orphanDependents?: boolean;
  /** DELETE's `propagationPolicy`, when given. */
  propagationPolicy?: DeletionPropagation;
}

const metaGroup = 'meta.k8s.io';
const fieldManagerMaxLength = 128;

/** The first value of an integer parameter (kube reads only the first), or a 400 with Go's error. */
function int64Param(query: URLSearchParams, name: string): bigint | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  return valueOr400(parseGoInt64(text));
}

function valueOr400(parsed: GoParse, prefix = ''): bigint {
  if (!parsed.ok) throw StatusError.badRequest(`${prefix}${parsed.message}`);
  return parsed.value;
}

/** Rejects a `resourceVersion` that is not a uint64, as the storage layer's versioner does. */
function checkResourceVersion(query: URLSearchParams): void {
  const rv = query.get('resourceVersion');
  if (rv === null || rv === '') return;
  const parsed = parseGoUint64(rv);
  if (!parsed.ok)
    throw StatusError.badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(rv)}: ${parsed.message}`,
    );
}

/** apimachinery's `ValidateListOptions` (pkg/apis/meta/internalversion/validation). */
function listOptionErrors(query: URLSearchParams, watch: boolean): FieldError[] {
  const errors: FieldError[] = [];
  const match = query.get('resourceVersionMatch') ?? '';
  const sendInitialEvents = query.has('sendInitialEvents');
  const continueToken = query.get('continue') ?? '';
  const forbidden = (field: string, detail: string) =>
    errors.push({ type: 'FieldValueForbidden', field, detail });
  const unsupported = (value: string, supported: string[]) =>
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'resourceVersionMatch',
      value,
      detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
    });
  if (watch) {
    if (sendInitialEvents && match !== 'NotOlderThan')
      forbidden(
        'resourceVersionMatch',
        'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      );
    if (match !== '') {
      if (!sendInitialEvents)
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
        );
      if (match !== 'NotOlderThan') unsupported(match, ['NotOlderThan']);
      if (continueToken !== '')
        forbidden(
          'resourceVersionMatch',
          'resourceVersionMatch is forbidden when continue is provided',
        );
    }
    return errors;
  }
  if (match !== '') {
    const rv = query.get('resourceVersion') ?? '';
    if (rv === '')
      forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden unless resourceVersion is provided',
      );
    if (continueToken !== '')
      forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch is forbidden when continue is provided',
      );
    if (match !== 'Exact' && match !== 'NotOlderThan')
      unsupported(match, ['Exact', 'NotOlderThan', '']);
    if (match === 'Exact' && rv === '0')
      forbidden(
        'resourceVersionMatch',
        'resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      );
  }
  if (sendInitialEvents) forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list');
  return errors;
}

/** apimachinery's `ValidateDryRun`: every value must be `All`. */
function dryRunErrors(values: string[]): FieldError[] {
  if (values.every((value) => value === 'All')) return [];
  return [
    {
      type: 'FieldValueNotSupported',
      field: 'dryRun',
      value: values,
      detail: 'supported values: "All"',
    },
  ];
}

/** apimachinery's `ValidateFieldManager`: at most 128 printable characters. */
function fieldManagerErrors(manager: string | null): FieldError[] {
  if (manager === null) return [];
  const errors: FieldError[] = [];
  if ([...manager].length > fieldManagerMaxLength)
    errors.push({
      type: 'FieldValueTooLong',
      field: 'fieldManager',
      detail: `may not be more than ${fieldManagerMaxLength} bytes`,
    });
  let position = 0;
  for (const char of manager) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) {
      const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errors.push({
        type: 'FieldValueInvalid',
        field: 'fieldManager',
        value: manager,
        detail: `invalid character U+${code} (at position ${position})`,
      });
    }
    position += Buffer.byteLength(char);
  }
  return errors;
}

/** apimachinery's `ValidateFieldValidation`. */
function fieldValidationErrors(value: string): FieldError[] {
  if (['', 'Ignore', 'Strict', 'Warn'].includes(value)) return [];
  return [
    {
      type: 'FieldValueNotSupported',
      field: 'fieldValidation',
      value,
      detail: 'supported values: "", "Ignore", "Strict", "Warn"',
    },
  ];
}

/** apimachinery's `ValidateDeleteOptions`, on the query's delete options. */
function deleteOptionErrors(
  propagationPolicy: string | undefined,
  orphanDependents: boolean | undefined,
): FieldError[] {
  const errors: FieldError[] = [];
  if (propagationPolicy !== undefined && orphanDependents !== undefined)
    errors.push({
      type: 'FieldValueInvalid',
      field: 'propagationPolicy',
      value: propagationPolicy,
      detail: 'orphanDependents and deletionPropagation cannot be both set',
    });
  if (
    propagationPolicy !== undefined &&
    !['Foreground', 'Background', 'Orphan'].includes(propagationPolicy)
  )
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'propagationPolicy',
      value: propagationPolicy,
      detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
    });
  return errors;
}

function throwInvalid(kind: string, errors: FieldError[]): void {
  if (errors.length > 0) throw StatusError.invalid({ group: metaGroup, kind }, '', errors);
}

/**
 * Parses and checks the query of a resource request as kube-apiserver does for its verb:
 * `GET` reads `ListOptions` (collections and watches) or `GetOptions`; `POST`, `PUT` and
 * `PATCH` read `CreateOptions`, `UpdateOptions` and `PatchOptions`; `DELETE` reads
 * `DeleteOptions` (and `ListOptions` on a collection). Booleans follow {@link queryBool};
 * integers (`limit`, `timeoutSeconds`, `gracePeriodSeconds`) are Go int64s and only the first
 * value counts.
 *
 * @throws {StatusError} 400 with Go's text for an integer that does not parse
 *   (`strconv.ParseInt: parsing "abc": invalid syntax`) or a resourceVersion that is not a
 *   uint64 (`invalid resource version: ...`); 422 `Invalid` on `meta.k8s.io` `ListOptions`,
 *   `CreateOptions`, `UpdateOptions`, `PatchOptions` or `DeleteOptions` for values kube's
 *   option validation refuses (unknown `dryRun` or `fieldValidation` values, a bad
 *   `propagationPolicy`, `resourceVersionMatch` misuse, a non-printable `fieldManager`).
 */
export function parseQueryOptions(
  method: string,
  named: boolean,
  query: URLSearchParams,
): QueryOptions {
  const options: QueryOptions = { watch: false, dryRun: false, fieldValidation: 'Warn' };
  const readsList = method === 'GET' || method === 'HEAD' || (method === 'DELETE' && !named);
  if (readsList) {
    options.watch = method !== 'DELETE' && queryBool(query, 'watch');
    if (!named || options.watch) {
      int64Param(query, 'limit');
      int64Param(query, 'timeoutSeconds');
      checkResourceVersion(query);
      throwInvalid('ListOptions', listOptionErrors(query, options.watch));
    } else {
      checkResourceVersion(query);
    }
  }
  const writeKinds: Record<string, string> = {
    POST: 'CreateOptions',
    PUT: 'UpdateOptions',
    PATCH: 'PatchOptions',
    DELETE: 'DeleteOptions',
  };
  const kind = writeKinds[method];
  if (kind === undefined) return options;
  const dryRun = query.getAll('dryRun');
  const errors = dryRunErrors(dryRun);
  options.dryRun = dryRun.length > 0;
  if (method === 'DELETE') {
    const grace = int64Param(query, 'gracePeriodSeconds');
    if (grace !== undefined) options.gracePeriodSeconds = Number(grace);
    if (query.has('orphanDependents'))
      options.orphanDependents = queryBool(query, 'orphanDependents');
    const policy = query.get('propagationPolicy') ?? undefined;
    errors.push(...deleteOptionErrors(policy, options.orphanDependents));
    if (policy !== undefined) options.propagationPolicy = policy as DeletionPropagation;
  } else {
    const manager = query.get('fieldManager');
    const validation = query.get('fieldValidation') ?? '';
    errors.unshift(...fieldManagerErrors(manager));
    errors.push(...fieldValidationErrors(validation));
    if (manager !== null) options.fieldManager = manager;
    if (validation !== '') options.fieldValidation = validation as FieldValidation;
  }
  throwInvalid(kind, errors);
  return options;
}
