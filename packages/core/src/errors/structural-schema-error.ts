const marker = Symbol.for('@ops/core.StructuralSchemaError');

/**
 * A TypeBox (JSON) schema construct that a Kubernetes structural schema cannot express: a
 * `$ref`, a tuple, `allOf`/`oneOf`/`not`, a union of different types (other than
 * int-or-string and `T | null`), a node without a type, a non-JSON type (`Date`, `bigint`,
 * ...), or an unknown keyword.
 *
 * `path` locates the node in the object (`spec.ports[*].targetPort`, `[*]` for array items
 * and `.*` for map values); `message` names the path, the construct and what to write
 * instead. Recognise it with {@link StructuralSchemaError.isInstance}, which works even when
 * two copies of `@ops/core` are loaded.
 */
export class StructuralSchemaError extends Error {
  readonly [marker] = true;
  override readonly name = 'StructuralSchemaError';

  constructor(
    message: string,
    /** Where in the object the construct is: `spec.ports[*].targetPort`. */
    readonly path: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is StructuralSchemaError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
