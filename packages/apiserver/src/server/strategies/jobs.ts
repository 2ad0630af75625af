// batch/v1 Jobs: defaults, the generated selector and validation.
import { isJsonObject } from '@ops/api';
import type { FieldError } from '../../api/field-error.js';
import { defaultPodSpec, validatePodSpec } from './pod-spec.js';
import type { Json, Obj, Strategy } from './strategy.js';
import { validateSelectorMatchesTemplate } from './workloads.js';

/** Labels kube-apiserver puts on a Job's Pod template, each naming the Job. */
export const jobLabels = {
  controllerUid: 'batch.kubernetes.io/controller-uid',
  jobName: 'batch.kubernetes.io/job-name',
  legacyControllerUid: 'controller-uid',
  legacyJobName: 'job-name',
} as const;

/** The defaults of batch/v1 Job: parallelism and completions 1, backoffLimit 6, NonIndexed. */
function defaultJob(object: Obj): void {
  const spec: Json = isJsonObject<Json>(object.spec) ? object.spec : {};
  object.spec = spec;
  if (spec.completions === undefined && spec.parallelism === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  if (spec.podFailurePolicy === undefined) spec.podReplacementPolicy ??= 'TerminatingOrFailed';
  if (isJsonObject<Json>(spec.template) && isJsonObject<Json>(spec.template.spec))
    defaultPodSpec(spec.template.spec);
}

/**
 * Unless `spec.manualSelector` is true: selects the Job's Pods by its uid and labels its Pod
 * template with the uid and name (both the `batch.kubernetes.io/` and the legacy labels).
 */
function generateJobSelector(object: Obj): void {
  const spec = object.spec;
  if (!isJsonObject<Json>(spec) || spec.manualSelector === true) return;
  const uid = object.metadata?.uid ?? '';
  const name = object.metadata?.name ?? '';
  const template: Json = isJsonObject<Json>(spec.template) ? spec.template : {};
  spec.template = template;
  const metadata: Json = isJsonObject<Json>(template.metadata) ? template.metadata : {};
  template.metadata = metadata;
  metadata.labels = {
    ...(isJsonObject<Json>(metadata.labels) ? metadata.labels : {}),
    [jobLabels.controllerUid]: uid,
    [jobLabels.jobName]: name,
    [jobLabels.legacyControllerUid]: uid,
    [jobLabels.legacyJobName]: name,
  };
  spec.selector ??= { matchLabels: { [jobLabels.controllerUid]: uid } };
}

/** A Job's Pod template is a valid Pod spec that runs to completion, matched by the selector. */
function validateJob(object: Obj, old: Obj | undefined): FieldError[] {
  const spec = object.spec;
  if (!isJsonObject<Json>(spec)) return [{ type: 'FieldValueRequired', field: 'spec' }];
  const template = isJsonObject<Json>(spec.template) ? spec.template : {};
  const errors = [
    ...validateSelectorMatchesTemplate(object, old),
    ...validatePodSpec(template.spec, 'spec.template.spec'),
  ];
  const policy = isJsonObject<Json>(template.spec) ? template.spec.restartPolicy : undefined;
  if (policy !== 'Never' && policy !== 'OnFailure') {
    errors.push({
      type: 'FieldValueNotSupported',
      field: 'spec.template.spec.restartPolicy',
      value: policy ?? '',
      detail: 'supported values: "OnFailure", "Never"',
    });
  }
  for (const field of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds']) {
    const value = spec[field];
    if (value === undefined || value === null) continue;
    const minimum = field === 'activeDeadlineSeconds' ? 1 : 0;
    if (!Number.isInteger(value) || value < minimum)
      errors.push({
        type: 'FieldValueInvalid',
        field: `spec.${field}`,
        value,
        detail: `must be greater than or equal to ${minimum}`,
      });
  }
  return errors;
}

export const jobStrategy: Strategy = {
  prepareForCreate: defaultJob,
  prepareForUpdate(object, old) {
    defaultJob(object);
    // The selector and the labels it generated are the Job's for life.
    if (
      isJsonObject<Json>(object.spec) &&
      isJsonObject<Json>(old.spec) &&
      old.spec.selector !== undefined
    )
      object.spec.selector = old.spec.selector;
  },
  completeCreate: generateJobSelector,
  validate: validateJob,
};
