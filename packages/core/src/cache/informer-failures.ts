import type { Logger } from 'pino';
import { InformerRequestError } from '../errors/informer-request-error.js';
import type { InformerStats } from './informer.js';

/**
 * The list and watch failures of one informer: each reported one is kept as {@link last}
 * (until the informer clears it), counted in `errors`, logged as a warning and passed to
 * `onError`, whose exceptions are logged and otherwise ignored.
 */
export class InformerFailures {
  /** The last failure reported, until cleared. */
  last: InformerRequestError | undefined;

  constructor(
    private readonly counters: Pick<InformerStats, 'errors'>,
    private readonly log: Logger,
    private readonly onError: ((error: InformerRequestError) => void) | undefined,
  ) {}

  /** Keeps, counts, logs and hands on one failure. */
  report(error: InformerRequestError): void {
    this.last = error;
    this.counters.errors++;
    this.log.warn(
      { err: error, status: error.status },
      `${error.verb} failed; retrying with backoff`,
    );
    if (this.onError !== undefined) {
      try {
        this.onError(error);
      } catch (handlerError) {
        this.log.error({ err: handlerError }, 'onError handler threw');
      }
    }
  }

  /** Reports what a LIST threw, as an {@link InformerRequestError} naming `description`. */
  reportList(error: unknown, description: string): void {
    this.report(
      InformerRequestError.isInstance(error)
        ? error
        : new InformerRequestError(
            `list of ${description} failed: ${(error as Error).message}`,
            'list',
            description,
            undefined,
            { cause: error },
          ),
    );
  }
}
