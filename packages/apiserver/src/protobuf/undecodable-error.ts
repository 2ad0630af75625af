const marker = Symbol.for('@ops/apiserver.UndecodableError');

/**
 * Well-formed protobuf that cannot be turned into the JSON a Go client would have sent: an
 * unknown field number, a wrong wire type, invalid UTF-8, an integer beyond ±2^53-1, a time
 * outside years 1..9999 ... `decodeKubernetesProtobuf` turns it into a 400 BadRequest.
 */
export class UndecodableError extends Error {
  readonly [marker] = true;
  override readonly name = 'UndecodableError';

  static isInstance(error: unknown): error is UndecodableError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
