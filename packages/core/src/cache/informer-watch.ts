import type { KubernetesObject, Status, WatchEvent } from '@ops/api';
import type { Clock, TimerHandle } from '../clock/clock.js';
import { InformerRequestError } from '../errors/informer-request-error.js';
import type { TransportRequest, WatchConnection } from '../transport/kube-transport.js';
import type { InformerTransport } from './informer.js';
import { informerStatusError } from './informer-status-error.js';

/** A clean watch end this soon after it started, having delivered nothing, counts as a failure. */
const shortWatchMs = 1_000;

/** How one watch ended, and so what the informer does next. */
export type WatchOutcome =
  | { kind: 'ended' }
  | { kind: 'gone'; reason: string }
  | { kind: 'silent'; lines: number }
  | { kind: 'error'; error: InformerRequestError }
  | { kind: 'stopped' };

/** What {@link watchOnce} needs of its informer. */
export interface WatchOnceOptions {
  transport: InformerTransport;
  /** The collection's path. */
  path: string;
  /** The watch's query: selectors, `watch`, `resourceVersion`, bookmarks, `timeoutSeconds`. */
  query: TransportRequest['query'];
  clock: Clock;
  /**
   * A watch that delivers no line for this long ends as `silent`. Read at each check, so a
   * getter may change it during the watch (a WatchList's shorter wait for its bookmark).
   */
  silentWatchTimeoutMs: number;
  /** The resource, for error messages. */
  description: string;
  /** Receives the function that ends this watch as `stopped` (undefined once it ended). */
  setClose: (close: (() => void) | undefined) => void;
  /** Applies one line; an outcome ends the watch with it. */
  handleLine: (line: string) => WatchOutcome | undefined;
}

/**
 * One WATCH request, from open to end: every line goes to `handleLine`; the outcome says
 * how it ended — `ended` (the server closed it cleanly), `gone` (410: relist), `silent` (no
 * line for `silentWatchTimeoutMs`; the silence check re-arms itself, so a busy watch costs
 * one clock read per line and no timer churn), `error` (a failure, or a watch that ended at
 * once without delivering anything), or `stopped`. Never rejects.
 */
export function watchOnce(options: WatchOnceOptions): Promise<WatchOutcome> {
  const startedAt = options.clock.now();
  let lastActivity = startedAt;
  let lines = 0;
  let settled = false;
  let connection: WatchConnection | undefined;
  let silenceTimer: TimerHandle | undefined;

  return new Promise<WatchOutcome>((resolve) => {
    const finish = (outcome: WatchOutcome) => {
      if (settled) return;
      settled = true;
      if (silenceTimer !== undefined) options.clock.clearTimeout(silenceTimer);
      options.setClose(undefined);
      connection?.close();
      resolve(outcome);
    };
    options.setClose(() => finish({ kind: 'stopped' }));

    // The silence check re-arms itself rather than being reset on every line, so a busy
    // watch costs one clock read per event and no timer churn.
    const checkSilence = () => {
      silenceTimer = undefined;
      if (settled) return;
      const idle = options.clock.now() - lastActivity;
      if (idle >= options.silentWatchTimeoutMs) finish({ kind: 'silent', lines });
      else
        silenceTimer = options.clock.setTimeout(checkSilence, options.silentWatchTimeoutMs - idle);
    };
    silenceTimer = options.clock.setTimeout(checkSilence, options.silentWatchTimeoutMs);

    const onLine = (line: string) => {
      if (settled) return;
      lastActivity = options.clock.now();
      lines++;
      const outcome = options.handleLine(line);
      if (outcome !== undefined) finish(outcome);
    };
    const onDone = (error?: Error) => {
      if (settled) return;
      if (error !== undefined) {
        const status = (error as Error & { status?: number }).status;
        if (status === 410) {
          finish({ kind: 'gone', reason: error.message });
          return;
        }
        finish({
          kind: 'error',
          error:
            status !== undefined
              ? informerStatusError(
                  'watch',
                  status,
                  error.message.replace(/^watch \S+ answered \d+: /, ''),
                  options.description,
                )
              : new InformerRequestError(
                  `watch of ${options.description} failed: ${error.message}`,
                  'watch',
                  options.description,
                  undefined,
                  { cause: error },
                ),
        });
        return;
      }
      if (lines === 0 && options.clock.now() - startedAt < shortWatchMs) {
        finish({
          kind: 'error',
          error: new InformerRequestError(
            `watch of ${options.description} ended at once without delivering anything`,
            'watch',
            options.description,
            undefined,
          ),
        });
        return;
      }
      finish({ kind: 'ended' });
    };

    options.transport.watch(options.path, options.query, { onLine, onDone }).then(
      (opened) => {
        if (settled) opened.close();
        else connection = opened;
      },
      (error: unknown) =>
        finish({
          kind: 'error',
          error: new InformerRequestError(
            `watch of ${options.description} could not start: ${(error as Error).message}`,
            'watch',
            options.description,
            undefined,
            { cause: error },
          ),
        }),
    );
  });
}

/** A watch line as read: any field may be missing; an `ERROR` event's object is a Status. */
type WatchLine = Partial<
  WatchEvent<KubernetesObject & Pick<Status, 'code' | 'message' | 'reason'>>
>;

/** One watch line parsed, or the `error` outcome that ends the watch when it is not JSON. */
export function parseWatchLine(line: string, description: string): WatchLine | WatchOutcome {
  try {
    return JSON.parse(line) as WatchLine;
  } catch (error) {
    return {
      kind: 'error',
      error: new InformerRequestError(
        `watch of ${description} sent a line that is not JSON`,
        'watch',
        description,
        undefined,
        { cause: error },
      ),
    };
  }
}

/**
 * How an `ERROR` event ends the watch: `gone` (relist) for 410, `Expired` or `Gone`, else an
 * `error` with the Status's code and message (`line` itself when it has no message).
 */
export function watchErrorOutcome(
  object: WatchLine['object'],
  line: string,
  description: string,
): WatchOutcome {
  const code = typeof object?.code === 'number' ? object.code : undefined;
  const message = typeof object?.message === 'string' ? object.message : line;
  if (code === 410 || object?.reason === 'Expired' || object?.reason === 'Gone') {
    return { kind: 'gone', reason: message };
  }
  return {
    kind: 'error',
    error: new InformerRequestError(
      `watch of ${description} reported an error${code === undefined ? '' : ` (${code})`}: ${message}`,
      'watch',
      description,
      code,
    ),
  };
}
