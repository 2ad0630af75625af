// core/v1 Pods: Pod spec defaults on create, validation, and the few fields an update may change.
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { canonicalJson } from '../../json/json.js';
import { defaultPodSpec, validatePodSpec } from './pod-spec.js';
import type { Json, Obj, Strategy } from './strategy.js';

function podUpdateProblems(object: Obj, old: Obj): FieldError[] {
  // Pod specs are immutable but for container images and a few scheduling fields.
  const normalize = (spec: unknown): string => {
    if (!isJsonObject<Json>(spec)) return canonicalJson(spec);
    const copy = structuredClone(spec);
    for (const list of ['containers', 'initContainers']) {
      if (Array.isArray(copy[list]))
        for (const c of copy[list]) if (isJsonObject<Json>(c)) c.image = '';
    }
    copy.activeDeadlineSeconds = undefined;
    copy.tolerations = undefined;
    copy.terminationGracePeriodSeconds = undefined;
    copy.nodeName = undefined;
    return canonicalJson(copy);
  };
  if (normalize(object.spec) === normalize(old.spec)) return [];
  return [
    {
      type: 'FieldValueForbidden',
      field: 'spec',
      detail:
        'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
    },
  ];
}

export const podStrategy: Strategy = {
  prepareForCreate(object) {
    const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
    object.spec = spec;
    defaultPodSpec(spec);
    object.status = { phase: 'Pending', qosClass: 'BestEffort' };
  },
  validate(object, old) {
    const errors = validatePodSpec(object.spec, 'spec');
    if (old !== undefined && errors.length === 0) errors.push(...podUpdateProblems(object, old));
    return errors;
  },
};
