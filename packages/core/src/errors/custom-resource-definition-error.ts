const marker = Symbol.for('@ops/core.CustomResourceDefinitionError');

/**
 * A custom resource definition that Kubernetes would reject, or that cannot be rendered:
 * invalid names (group, kind, plural, ...), versions (none, duplicates, not exactly one
 * storage version), printer columns or subresources, or an object handed to
 * `validate` whose `apiVersion` is not one of the definition's versions.
 *
 * `message` names the definition, the offending field and how to fix it; `field` is the
 * option's path (`versions[1].name`, `plural`). Recognise it with
 * {@link CustomResourceDefinitionError.isInstance}, which works even when two copies of
 * `@ops/core` are loaded.
 */
export class CustomResourceDefinitionError extends Error {
  readonly [marker] = true;
  override readonly name = 'CustomResourceDefinitionError';

  constructor(
    message: string,
    /** The offending option, as a path into the definition's options. */
    readonly field: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is CustomResourceDefinitionError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
