const marker = Symbol.for('@ops/api.UnsupportedNodeError');

/**
 * The running Node.js is not one the ops packages support (package.json `engines.node`).
 * `message` says which releases are required, which one this is, and how to fix it. Thrown
 * when `@ops/core` is loaded by an unsupported Node.js, before its dependencies fail there in
 * obscure ways. Recognise it with {@link UnsupportedNodeError.isInstance}, which works even
 * when two copies of `@ops/api` are loaded.
 */
export class UnsupportedNodeError extends Error {
  override readonly name = 'UnsupportedNodeError';

  static isInstance(error: unknown): error is UnsupportedNodeError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
// On the prototype, not on each error: Node.js prints an uncaught error's own properties
// after its message, and this one is read by a person at a terminal.
Object.defineProperty(UnsupportedNodeError.prototype, marker, { value: true });
