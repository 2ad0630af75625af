/**
 * The rules kube-apiserver applies to an object on its way into storage, whatever the verb:
 * decoding the body against the resource, the metadata the server owns, the namespace's
 * lifecycle, finalizers during deletion, CRD schema defaulting and pruning, validation, and
 * what admission is told. Used by {@link ResourceService}.
 */
import type { KubernetesObject, ObjectMeta } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { AdmissionAttributes } from '../../admission/admission.js';
import type { FieldError } from '../../api/field-error.js';
import { StatusError } from '../../api/status-error.js';
import { validateObjectMeta } from '../../meta/object-metadata.js';
import { apiVersionOf, type ResourceType, storageKeyOf } from '../../registry/resource-type.js';
import { builtinKindSchema } from '../../schema/builtin-openapi.js';
import { checkBuiltinObject } from '../../schema/check-builtin-object.js';
import {
  applyDefaults,
  pruneUnknownFields,
  validateCelRules,
  validateCustomResource,
  validationRulesOf,
} from '../../schema/index.js';
import type { ObjectStore } from '../../store/object-store.js';
import { strategyFor } from '../strategies/index.js';
import type { RequestContext } from './resource-service.js';
import { convertsByWebhook } from './version-conversion.js';

/**
 * The body of a create or update as the object to store: checks `kind` and `apiVersion`
 * against the resource, sets them (custom resources at their storage version, unless their
 * CRD's webhook converts them: those stay at `type`'s version until converted), and makes the
 * namespace the request's (400 when the body names another); cluster-scoped objects lose it.
 */
export function decodeObject(
  type: ResourceType,
  body: unknown,
  namespace: string,
): KubernetesObject {
  if (!isJsonObject(body))
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
  // Custom resources go to their storage version: by `apiVersion` alone under the `None`
  // conversion strategy; through the CRD's webhook (later, see ResourceService) under `Webhook`.
  object.apiVersion =
    type.custom && !convertsByWebhook(type)
      ? apiVersionOf({ group: type.group, version: type.storageVersion })
      : apiVersion;
  object.kind = type.kind;
  if (object.metadata === undefined || object.metadata === null) object.metadata = {};
  if (!type.custom) checkBuiltinTypes(type, object, undefined);
  if (!isJsonObject(object.metadata)) throw StatusError.badRequest('metadata must be an object');
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

/** Drops the metadata the server owns from an object being created. */
export function resetSystemFields(object: KubernetesObject): void {
  const meta = object.metadata as ObjectMeta;
  delete meta.uid;
  delete meta.resourceVersion;
  delete meta.creationTimestamp;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
  delete meta.managedFields;
}

/** Keeps the server-owned metadata of `old` on its replacement (an update cannot change it). */
export function keepSystemFields(object: KubernetesObject, old: KubernetesObject): void {
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

/**
 * Checks that an object may be created in `namespace`: it is given (400), exists (404) and is
 * not being terminated (403 `NamespaceTerminating`, as kube-apiserver's lifecycle admission).
 */
export function checkNamespaceAccepts(store: ObjectStore, namespace: string, name: string): void {
  if (!namespace)
    throw StatusError.badRequest(
      `namespace is required for namespaced resources (object "${name}")`,
    );
  const stored = store.get('/namespaces', namespace);
  if (stored === undefined) {
    throw StatusError.notFound({ group: '', resource: 'namespaces', kind: 'Namespace' }, namespace);
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

/** Rejects (422) new finalizers on an object that is being deleted, as kube-apiserver does. */
export function checkFinalizersWhileDeleting(
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

/**
 * Defaults and prunes a custom resource by its schema; pruned fields fail the request with
 * `fieldValidation=Strict`, become warnings with `Warn` (the default), pass with `Ignore`.
 */
export function applySchema(
  type: ResourceType,
  object: KubernetesObject,
  context: RequestContext,
): void {
  if (!type.custom) {
    checkBuiltinTypes(type, object, context);
    return;
  }
  if (type.schema === undefined) return;
  applyDefaults(type.schema, object);
  const pruned = pruneUnknownFields(type.schema, object);
  if (pruned.length === 0) return;
  const mode = context.fieldValidation ?? 'Warn';
  if (mode === 'Strict') {
    throw StatusError.badRequest(
      `strict decoding error: ${pruned.map((path: string) => `unknown field "${path}"`).join(', ')}`,
    );
  }
  if (mode === 'Warn') for (const path of pruned) context.warnings?.push(`unknown field "${path}"`);
}

/**
 * Checks a built-in object's JSON types against the schema published at /openapi/v3 (400 with
 * Go's decoding error, as kube-apiserver), and, given a request `context`, drops the fields the
 * schema does not declare: a 400 `strict decoding error` under `fieldValidation=Strict`, a
 * `Warning` per field under `Warn`, silently under `Ignore`. Kinds without a published schema
 * pass untouched.
 */
function checkBuiltinTypes(
  type: ResourceType,
  object: KubernetesObject,
  context: RequestContext | undefined,
): void {
  const schema = builtinKindSchema(apiVersionOf(type), type.kind);
  if (schema === undefined) return;
  const cannotHandle = `${type.kind} in version "${type.version}" cannot be handled as a ${type.kind}`;
  const mode = context?.fieldValidation ?? 'Warn';
  const check = checkBuiltinObject(type.kind, schema, object as Record<string, unknown>, {
    prune: context !== undefined && mode !== 'Strict',
  });
  if (check.typeError !== undefined)
    throw StatusError.badRequest(`${cannotHandle}: ${check.typeError}`);
  if (context === undefined || check.unknownFields.length === 0) return;
  const unknown = check.unknownFields.map((path) => `unknown field "${path}"`);
  if (mode === 'Strict')
    throw StatusError.badRequest(`${cannotHandle}: strict decoding error: ${unknown.join(', ')}`);
  if (mode === 'Warn') context.warnings?.push(...unknown);
}

/**
 * Validates metadata, the custom resource schema, its CEL rules and the kind's own rules: 422
 * with every error. Ratcheted CEL errors (unchanged values on update) go to `warnings`.
 */
export function validateObject(
  type: ResourceType,
  object: KubernetesObject,
  old: KubernetesObject | undefined,
  warnings?: string[],
): void {
  const errors: FieldError[] = validateObjectMeta(type, object.metadata ?? {});
  if (type.custom && type.schema !== undefined) {
    errors.push(...validateCustomResource(type.schema, object));
    errors.push(...celRuleErrors(type.schema, object, old, errors, warnings));
  }
  errors.push(...(strategyFor(storageKeyOf(type)).validate?.(object, old) ?? []));
  if (errors.length > 0) throw StatusError.invalid(type, object.metadata?.name ?? '', errors);
}

/** Schema errors after which kube-apiserver does not run CEL rules (hasBlockingErr). */
const blockingTypes = new Set<FieldError['type']>([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/**
 * The CEL rule errors of a custom resource, or, when the schema errors found so far would
 * make the rules meaningless (wrong types, missing required fields), kube-apiserver's note
 * that the rules were not checked.
 */
function celRuleErrors(
  schema: NonNullable<ResourceType['schema']>,
  object: KubernetesObject,
  old: KubernetesObject | undefined,
  found: readonly FieldError[],
  warnings: string[] | undefined,
): FieldError[] {
  const rules = validationRulesOf(schema);
  if (rules.root === undefined) return [];
  if (found.some((error) => blockingTypes.has(error.type))) {
    return [
      {
        type: 'FieldValueInvalid',
        field: '<nil>',
        value: null,
        detail:
          'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
      },
    ];
  }
  const result = validateCelRules(rules.root, object, old);
  warnings?.push(...result.warnings);
  return result.errors;
}

/** What admission is told about a request. */
export function admissionAttributes(
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
    // Webhooks' warnings reach the client as Warning headers, as kube-apiserver sends them.
    ...(context.warnings ? { warnings: context.warnings } : {}),
  };
}
