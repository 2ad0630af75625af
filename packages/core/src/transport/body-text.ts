import { constants, isAscii } from 'node:buffer';
import { BodyTooLongError } from '../errors/body-too-long-error.js';

/**
 * Bodies up to this many bytes that are pure ASCII are decoded as Latin-1 (see
 * {@link decodeBodyText}); larger ones always as UTF-8.
 */
export const maxLatin1BodyBytes = 16 * 1024 * 1024;

/**
 * An HTTP body as UTF-8 text: equal to `body.toString('utf8')`, including for invalid bytes
 * (replaced by U+FFFD).
 *
 * Why not simply that: API server answers are almost always pure ASCII (Kubernetes names,
 * labels and most values are), and an ASCII body is copied byte for byte into a one-byte
 * string (Latin-1 equals UTF-8 on ASCII), several times faster than decoding UTF-8: for a
 * 6 MB list page, about 1 ms instead of 4. Node keeps such a large string outside the
 * JavaScript heap, and V8 collects garbage early when much memory is held outside its heap,
 * so bodies above {@link maxLatin1BodyBytes} (an unpaged list of tens of thousands of
 * objects) are decoded as UTF-8 into the heap instead: measured with tools/bench, the
 * Latin-1 path made a 30 MB list slower to parse, not faster.
 *
 * @param ascii whether `body` is known to be pure ASCII; checked here when omitted.
 * @throws {BodyTooLongError} when the text would be longer than a string can be.
 */
export function decodeBodyText(body: Buffer, ascii?: boolean): string {
  // An ASCII body makes a string of one character per byte: too long is known up front,
  // where decoding would spend seconds before failing.
  if (ascii === true && body.length > constants.MAX_STRING_LENGTH)
    throw new BodyTooLongError(body.length);
  const latin1 = body.length <= maxLatin1BodyBytes && (ascii ?? isAscii(body));
  try {
    return body.toString(latin1 ? 'latin1' : 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG')
      throw new BodyTooLongError(body.length, undefined, { cause: error });
    throw error;
  }
}

/**
 * Collects the chunks of an HTTP body as they arrive and decodes them with
 * {@link decodeBodyText} once the body is complete. Each chunk is checked for ASCII on
 * arrival, so the check costs nothing at the end.
 */
export class BodyText {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private ascii = true;

  /** Adds the next chunk, in arrival order. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    if (this.ascii && !isAscii(chunk)) this.ascii = false;
  }

  /**
   * The whole body as text (`` when there was none).
   *
   * @throws {BodyTooLongError} when the text would be longer than a string can be.
   */
  text(): string {
    const chunks = this.chunks;
    if (chunks.length === 0) return '';
    if (this.ascii && this.bytes > constants.MAX_STRING_LENGTH)
      throw new BodyTooLongError(this.bytes);
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.bytes);
    return decodeBodyText(body, this.ascii);
  }
}
