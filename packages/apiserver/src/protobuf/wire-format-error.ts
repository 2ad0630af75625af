const marker = Symbol.for('@ops/apiserver.WireFormatError');

/**
 * Bytes that are not valid protobuf wire format (truncated, overlong varint, bad wire type ...).
 * Raised when protobufjs's Reader rejects the bytes; `decodeKubernetesProtobuf` turns it into a 400 BadRequest.
 */
export class WireFormatError extends Error {
  readonly [marker] = true;
  override readonly name = 'WireFormatError';

  /** @param offset byte offset, within the buffer being read, where the problem was found. */
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at byte ${offset}`);
  }

  static isInstance(error: unknown): error is WireFormatError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
