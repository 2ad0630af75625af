import type { KubernetesObject } from '@ops/api';
import type { Logger } from 'pino';
import type { InformerObjects } from './informer-objects.js';
import { parseWatchLine, type WatchOutcome, watchErrorOutcome } from './informer-watch.js';
import { type InitialEvents, isInitialEventsEnd } from './informer-watch-list.js';
import { shareUnchangedStrings } from './share-unchanged-strings.js';
import type { StoreChanges } from './store-changes.js';

/** What applying watch lines needs of its informer. */
export interface WatchLineTarget {
  /** The resource, for error messages. */
  readonly description: string;
  readonly log: Logger;
  /** Prepares (transforms, interns) the objects of events. */
  readonly objects: Pick<InformerObjects, 'prepare' | 'interned' | 'compact'>;
  /** Applies events to the store and tells handlers. */
  readonly changes: Pick<StoreChanges, 'apply' | 'remove'>;
  /** Whether an updated object shares the unchanged strings of the version it replaces. */
  readonly sharesStrings: boolean;
  /** A watch delivered an event: the last error is over. */
  delivered(): void;
  /** An event or bookmark advanced the resourceVersion; called before handlers see the event. */
  advance(resourceVersion: string): void;
  /** Makes the store equal to a complete state (a WatchList's at its bookmark). */
  replace(items: KubernetesObject[], resourceVersion: string): void;
}

/**
 * Applies the lines of an informer's watches: {@link apply} for a watch's events (each
 * object prepared once and applied to the store, so handlers see the new state), and
 * {@link applyInitial} for the initial phase of a WatchList, whose events build a state
 * that is stored in one step at the initial-events-end bookmark.
 */
export class WatchLineApplier {
  constructor(private readonly target: WatchLineTarget) {}

  /**
   * Applies one line of a WatchList's initial phase to `initial`; true at the
   * initial-events-end bookmark, once the state is stored; an outcome when the watch must end.
   */
  applyInitial(line: string, initial: InitialEvents): WatchOutcome | true | undefined {
    const target = this.target;
    const event = parseWatchLine(line, target.description);
    if ('kind' in event) return event;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        const prepared = target.objects.prepare(event.object);
        if (prepared !== undefined) initial.apply(event.type as 'ADDED', prepared);
        return undefined;
      }
      case 'BOOKMARK': {
        if (!isInitialEventsEnd(event.object)) return undefined;
        const items = initial.items();
        target.replace(items, event.object?.metadata?.resourceVersion ?? '');
        target.objects.compact(items);
        return true;
      }
      case 'ERROR':
        return watchErrorOutcome(event.object, line, target.description);
      default:
        target.log.warn({ type: event.type }, 'ignoring a watch event of unknown type');
        return undefined;
    }
  }

  /** Applies one watch line; returns an outcome when the watch must end. */
  apply(line: string): WatchOutcome | undefined {
    const target = this.target;
    const event = parseWatchLine(line, target.description);
    if ('kind' in event) return event;
    const object = event.object;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        target.delivered();
        const prepared = target.objects.prepare(object);
        if (prepared === undefined) return undefined;
        const resourceVersion = prepared.metadata?.resourceVersion;
        if (resourceVersion) target.advance(resourceVersion);
        // Deleted: not interned, it leaves. Updated: shares the replaced version's strings.
        if (event.type === 'DELETED') target.changes.remove(prepared);
        else
          target.changes.apply(prepared, (old) => {
            if (old === undefined) target.objects.interned(prepared);
            else if (target.sharesStrings) shareUnchangedStrings(old, prepared);
          });
        return undefined;
      }
      case 'BOOKMARK': {
        const resourceVersion = object?.metadata?.resourceVersion;
        if (resourceVersion) target.advance(resourceVersion);
        return undefined;
      }
      case 'ERROR':
        return watchErrorOutcome(object, line, target.description);
      default:
        target.log.warn({ type: event.type }, 'ignoring a watch event of unknown type');
        return undefined;
    }
  }
}
