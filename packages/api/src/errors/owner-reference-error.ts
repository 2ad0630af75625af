const marker = Symbol.for('@ops/api.OwnerReferenceError');

/** Why an owner reference could not be set. */
export type OwnerReferenceErrorReason =
  /** The object already has a different controller. */
  | 'AlreadyOwned'
  /** Owner and object are in different namespaces, or a cluster-scoped object was given a namespaced owner. */
  | 'CrossNamespace'
  /** The owner lacks what a reference needs (apiVersion, kind, name, uid). */
  | 'InvalidOwner';

/**
 * An owner reference that Kubernetes' garbage collector would not honour, or that would
 * take an object away from its current controller. The object is left unchanged.
 */
export class OwnerReferenceError extends Error {
  readonly [marker] = true;
  override readonly name = 'OwnerReferenceError';

  constructor(
    readonly reason: OwnerReferenceErrorReason,
    message: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is OwnerReferenceError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
