const marker = Symbol.for('@ops/core.PolicyRuleError');

/**
 * An RBAC rule that Kubernetes would reject or that grants nothing: no verbs, a resource
 * rule without groups or resources, a non-resource rule mixed with resources, a
 * non-resource URL not starting with `/`, or an invalid role name.
 *
 * `message` shows the rule and how to fix it. Recognise it with
 * {@link PolicyRuleError.isInstance}, which works even when two copies of `@ops/core` are
 * loaded.
 */
export class PolicyRuleError extends Error {
  readonly [marker] = true;
  override readonly name = 'PolicyRuleError';

  static isInstance(error: unknown): error is PolicyRuleError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
