// apiextensions.k8s.io/v1 CustomResourceDefinitions: status (established, stored versions) and validation.
import type { CustomResourceDefinitionObject } from '@ops/api';
import { formatRfc3339Seconds, isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { crdValidationRuleErrors, validateStructuralSchema } from '../../schema/index.js';
import type { Json, Obj, Strategy } from './strategy.js';

export const customResourceDefinitionStrategy: Strategy = {
  prepareForCreate(object) {
    object.status = crdStatus(object as CustomResourceDefinitionObject);
  },
  prepareForUpdate(object, old, subresource) {
    object.status = crdStatus(
      object as CustomResourceDefinitionObject,
      storedVersionsOnUpdate(object, old, subresource),
    );
  },
  validate: validateCrd,
};

/**
 * `status.storedVersions` after an update, as kube-apiserver keeps it: a status write sets it
 * (unchecked); any other write keeps the old list and appends the storage version when it is
 * not in it yet (objects may now be stored at it, and the older ones still are at theirs,
 * until a storage version migration rewrites them and someone removes those).
 */
function storedVersionsOnUpdate(object: Obj, old: Obj, subresource: string): string[] {
  const listed = (value: unknown): string[] =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  if (subresource === 'status') return listed(object.status?.storedVersions);
  const stored = listed(old.status?.storedVersions);
  const crd = object as CustomResourceDefinitionObject;
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  return storage === undefined || stored.includes(storage) ? stored : [...stored, storage];
}

/** A CRD's status: established, and `storedVersions` (on create, the storage version). */
function crdStatus(crd: CustomResourceDefinitionObject, storedVersions?: string[]): Json {
  const now = formatRfc3339Seconds();
  const storage = crd.spec?.versions?.find((v) => v.storage)?.name;
  return {
    acceptedNames: crd.spec?.names ?? {},
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
        lastTransitionTime: now,
      },
      {
        type: 'Established',
        status: 'True',
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
        lastTransitionTime: now,
      },
    ],
    storedVersions: storedVersions ?? (storage ? [storage] : []),
  };
}

function validateCrd(object: Obj): FieldError[] {
  const crd = object as CustomResourceDefinitionObject;
  const errors: FieldError[] = [];
  const spec = crd.spec as unknown;
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const group = typeof spec.group === 'string' ? spec.group : '';
  const names = isJsonObject<Json>(spec.names) ? spec.names : {};
  if (group === '') errors.push({ type: 'FieldValueRequired', field: 'spec.group' });
  else if (!group.includes('.'))
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.group',
      value: group,
      detail: 'should be a domain with at least one dot',
    });
  if (!names.plural) errors.push({ type: 'FieldValueRequired', field: 'spec.names.plural' });
  if (!names.kind) errors.push({ type: 'FieldValueRequired', field: 'spec.names.kind' });
  if (names.plural && group && crd.metadata?.name !== `${names.plural}.${group}`) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'metadata.name',
      value: crd.metadata?.name ?? '',
      detail: 'must be spec.names.plural+"."+spec.group',
    });
  }
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'spec.scope',
      value: spec.scope ?? '',
      detail: 'supported values: "Cluster", "Namespaced"',
    });
  }
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.versions',
      value: versions,
      detail: 'must have exactly one version marked as storage version',
    });
    return errors;
  }
  const storage = versions.filter(
    (v: unknown) => isJsonObject<Json>(v) && v.storage === true,
  ).length;
  if (storage !== 1) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.versions',
      value: versions.map((v: Json) => v?.name),
      detail: 'must have exactly one version marked as storage version',
    });
  }
  versions.forEach((version: unknown, index: number) => {
    if (!isJsonObject<Json>(version)) return;
    const schema = isJsonObject<Json>(version.schema) ? version.schema.openAPIV3Schema : undefined;
    const at = `spec.versions[${index}].schema.openAPIV3Schema`;
    if (!isJsonObject<Json>(schema)) {
      errors.push({ type: 'FieldValueRequired', field: at, detail: 'schemas are required' });
      return;
    }
    for (const problem of validateStructuralSchema(schema)) {
      errors.push({ ...problem, field: problem.field ? `${at}.${problem.field}` : at });
    }
  });
  errors.push(...crdValidationRuleErrors(versions));
  return errors;
}
