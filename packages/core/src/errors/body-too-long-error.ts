import { constants } from 'node:buffer';

const marker = Symbol.for('@ops/core.BodyTooLongError');

/**
 * A response body longer than the longest string Node.js can make (V8's limit,
 * `buffer.constants.MAX_STRING_LENGTH`: 512 MiB less a few bytes on 64-bit builds), so it
 * cannot be read as text. The message names its size and the fix: ask for it in pages.
 * The request that got it fails with this error (an informer reports it and retries, as
 * any list failure); the process goes on. Recognise it with
 * {@link BodyTooLongError.isInstance}, which works even when two copies of `@ops/core` are
 * loaded.
 */
export class BodyTooLongError extends RangeError {
  readonly [marker] = true;
  override readonly name = 'BodyTooLongError';

  /**
   * @param bytes the body's size in bytes.
   * @param request the request that answered it (`GET /api/v1/pods`), when known.
   */
  constructor(
    readonly bytes: number,
    readonly request?: string,
    options?: ErrorOptions,
  ) {
    super(
      `${request === undefined ? 'the answer' : `the answer to ${request}`} is ${bytes.toLocaleString('en-US')} bytes, longer than the longest string Node.js can hold (${constants.MAX_STRING_LENGTH.toLocaleString('en-US')} characters): ask for it in pages (a list's \`limit\` and \`continue\`; an informer's \`pageSize\`)`,
      options,
    );
  }

  static isInstance(error: unknown): error is BodyTooLongError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
