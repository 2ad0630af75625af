const marker = Symbol.for('@ops/api.ConditionError');

/** The field of a condition that failed validation. */
export type ConditionField =
  | 'type'
  | 'status'
  | 'reason'
  | 'message'
  | 'observedGeneration'
  | 'lastTransitionTime';

/**
 * A status condition that kube-apiserver would reject against the `metav1.Condition` schema
 * (bad `type`, `status`, `reason`, `message`, `observedGeneration` or `lastTransitionTime`).
 * `message` names the field, the value and how to write it; `field` is the offending field.
 * The conditions are left unchanged. Recognise it with {@link ConditionError.isInstance}, which works even
 * when two copies of `@ops/api` are loaded.
 */
export class ConditionError extends Error {
  readonly [marker] = true;
  override readonly name = 'ConditionError';

  constructor(
    message: string,
    /** The offending field. */
    readonly field: ConditionField,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is ConditionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
