// The apps/v1 workloads: Deployments, ReplicaSets, StatefulSets and DaemonSets.
import { isJsonObject, jsonEqual, LabelSelectorError, labelSelectorFromObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { defaultPodSpec, validatePodSpec } from './pod-spec.js';
import type { Json, Obj, Strategy } from './strategy.js';

/** A workload's selector is set, immutable and matches its Pod template's labels. */
export function validateSelectorMatchesTemplate(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = object.spec;
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const errors: FieldError[] = [];
  const labels =
    isJsonObject<Json>(spec.template) && isJsonObject<Json>(spec.template.metadata)
      ? spec.template.metadata.labels
      : undefined;
  if (!isJsonObject<Json>(spec.selector)) {
    errors.push({ type: 'FieldValueRequired', field: 'spec.selector' });
  } else {
    try {
      const selector = labelSelectorFromObject(spec.selector);
      if (selector.isEverything()) {
        errors.push({
          type: 'FieldValueInvalid',
          field: 'spec.selector',
          value: spec.selector,
          detail: 'empty selector is invalid for deployment',
        });
      } else if (!selector.matches(labels as Record<string, string> | undefined)) {
        errors.push({
          type: 'FieldValueInvalid',
          field: 'spec.template.metadata.labels',
          value: labels ?? {},
          detail: '`selector` does not match template `labels`',
        });
      }
    } catch (error) {
      if (!LabelSelectorError.isInstance(error)) throw error;
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.selector',
        value: spec.selector,
        detail: error.message,
      });
    }
    if (
      old !== undefined &&
      isJsonObject<Json>(old.spec) &&
      // Absent and null are the same (no selector), as in the typed object kube compares.
      !jsonEqual(old.spec.selector ?? null, spec.selector ?? null)
    ) {
      errors.push({
        type: 'FieldValueInvalid',
        field: 'spec.selector',
        value: spec.selector,
        detail: 'field is immutable',
      });
    }
  }
  if (typeof spec.replicas === 'number' && spec.replicas < 0) {
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.replicas',
      value: spec.replicas,
      detail: 'must be greater than or equal to 0',
    });
  }
  errors.push(
    ...validatePodSpec(
      isJsonObject<Json>(spec.template) ? spec.template.spec : undefined,
      'spec.template.spec',
    ),
  );
  return errors;
}

const workload: Strategy = {
  prepareForCreate(object) {
    const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
    object.spec = spec;
    spec.replicas ??= 1;
    // ReplicaSetSpec has no revisionHistoryLimit (the other workloads default it to 10).
    if (object.kind !== 'ReplicaSet') spec.revisionHistoryLimit ??= 10;
    if (object.kind === 'Deployment') {
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= {
        type: 'RollingUpdate',
        rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' },
      };
    }
    if (isJsonObject<Json>(spec.template) && isJsonObject<Json>(spec.template.spec))
      defaultPodSpec(spec.template.spec);
  },
  prepareForUpdate(object) {
    if (isJsonObject<Json>(object.spec)) {
      object.spec.replicas ??= 1;
      if (isJsonObject<Json>(object.spec.template) && isJsonObject<Json>(object.spec.template.spec))
        defaultPodSpec(object.spec.template.spec);
    }
  },
  validate: validateSelectorMatchesTemplate,
};

export const deploymentStrategy: Strategy = { ...workload, statusKeepsAnnotations: true };
export const replicaSetStrategy: Strategy = workload;
export const statefulSetStrategy: Strategy = workload;
export const daemonSetStrategy: Strategy = {
  ...workload,
  prepareForCreate(object) {
    if (
      isJsonObject<Json>(object.spec) &&
      isJsonObject<Json>(object.spec.template) &&
      isJsonObject<Json>(object.spec.template.spec)
    ) {
      defaultPodSpec(object.spec.template.spec);
    }
  },
};
