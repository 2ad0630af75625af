import { isJsonObject } from '@ops/api';
import { LabelSelectorError, labelSelectorFromObject } from '@ops/core/meta';
import {
  type AdmissionHandler,
  admissionAllowed,
  admissionDenied,
  admissionErrored,
  defineWebhook,
  type FieldErrorType,
  type WebhookDeclaration,
} from '@ops/core/webhook';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';

/** Where kube-apiserver calls the validating webhook `vsidecarset.kb.io`. */
export const validateSidecarSetPath = '/validate-apps-chinalhr-github-io-v1alpha1-sidecarset';

/** The denial of a SidecarSet without `spec.selector`. */
export const noSelectorMessage = 'no selector defined for sidecarset';
/** The denial of a SidecarSet whose selector has no requirement. */
export const emptySelectorMessage = 'empty selector is not valid for sidecarset.';

/**
 * One problem, as Kubernetes' `field.Error`: `message` is its `ErrorBody()`, the type's text
 * (`Required value`, `Invalid value: <value as JSON>`, `Duplicate value: <value>`) then the
 * detail.
 */
export interface SidecarSetProblem {
  field: string;
  type: FieldErrorType;
  message: string;
}

/**
 * What is wrong with a SidecarSet, empty when nothing:
 * - no `spec.selector`: `Required value: no selector defined for sidecarset`;
 * - a selector without any requirement (`{}`, empty matchLabels and matchExpressions):
 *   `Invalid value: <selector>: empty selector is not valid for sidecarset.`;
 * - a selector Kubernetes would refuse (a bad key or value, `In` without values):
 *   `Invalid value: <selector>: <what is wrong>`;
 * all on `spec.selector`; and two containers of the same name (a Pod cannot hold both):
 * `Duplicate value: "<name>"` on `spec.containers[<i>].name`.
 */
export function sidecarSetProblems(sidecarSet: SidecarSet): SidecarSetProblem[] {
  const problems: SidecarSetProblem[] = [];
  const selector = sidecarSet.spec?.selector;
  if (selector === undefined || selector === null) {
    problems.push({
      field: 'spec.selector',
      type: 'FieldValueRequired',
      message: `Required value: ${noSelectorMessage}`,
    });
  } else {
    const invalid = (detail: string) =>
      problems.push({
        field: 'spec.selector',
        type: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(selector)}: ${detail}`,
      });
    try {
      if (labelSelectorFromObject(selector).isEverything()) invalid(emptySelectorMessage);
    } catch (error) {
      if (!LabelSelectorError.isInstance(error)) throw error;
      invalid(error.message);
    }
  }
  const seen = new Set<string>();
  (sidecarSet.spec?.containers ?? []).forEach((container, index) => {
    if (seen.has(container.name))
      problems.push({
        field: `spec.containers[${index}].name`,
        type: 'FieldValueDuplicate',
        message: `Duplicate value: ${JSON.stringify(container.name)}`,
      });
    seen.add(container.name);
  });
  return problems;
}

/**
 * The message of Kubernetes' `apierrors.NewInvalid` for `problems` of SidecarSet `name`:
 * `SidecarSet.apps.chinalhr.github.io "<name>" is invalid: <field>: <message>`, several
 * problems as `[<field>: <message>, ...]`.
 */
export function invalidMessage(name: string, problems: readonly SidecarSetProblem[]): string {
  const errors = problems.map((problem) => `${problem.field}: ${problem.message}`);
  const list = errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`;
  return `SidecarSet.apps.chinalhr.github.io ${JSON.stringify(name)} is invalid: ${list}`;
}

/**
 * The webhook's handler: allows a SidecarSet without problems; denies one with problems as
 * Kubernetes' Invalid error (422, reason `Invalid`, one cause per problem, the message of
 * {@link invalidMessage}), so kubectl prints
 * `The SidecarSet "<name>" is invalid: spec.selector: Required value: no selector defined for sidecarset`.
 */
export const validateSidecarSet: AdmissionHandler = async (request) => {
  if (request.operation !== 'CREATE' && request.operation !== 'UPDATE') return admissionAllowed();
  const object = request.object;
  if (!isJsonObject(object))
    return admissionErrored(
      400,
      `AdmissionReview request.object must be a SidecarSet for ${request.operation}`,
    );
  const sidecarSet = object as unknown as SidecarSet;
  const problems = sidecarSetProblems(sidecarSet);
  if (problems.length === 0) return admissionAllowed();
  const name = sidecarSet.metadata?.name ?? request.name ?? '';
  return admissionDenied(invalidMessage(name, problems), {
    code: 422,
    reason: 'Invalid',
    details: {
      name,
      group: 'apps.chinalhr.github.io',
      kind: 'SidecarSet',
      causes: problems.map(({ field, type, message }) => ({ reason: type, message, field })),
    },
  });
};

/**
 * The validating webhook `vsidecarset.kb.io` at {@link validateSidecarSetPath} (SidecarSet
 * CREATE and UPDATE), `failurePolicy: Fail`: a SidecarSet is never stored unchecked.
 */
export const sidecarSetValidator: WebhookDeclaration = defineWebhook({
  type: 'validating',
  name: 'vsidecarset.kb.io',
  path: validateSidecarSetPath,
  rules: [
    {
      apiGroups: ['apps.chinalhr.github.io'],
      apiVersions: ['v1alpha1'],
      operations: ['CREATE', 'UPDATE'],
      resources: ['sidecarsets'],
    },
  ],
  failurePolicy: 'Fail',
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  handler: validateSidecarSet,
});
