import type { CoreEvent, EventPatch } from './core-event.js';
import { EventSpamFilter, type EventSpamFilterOptions } from './event-spam-filter.js';

/** Options of an {@link EventCorrelator}. */
export interface EventCorrelatorOptions extends EventSpamFilterOptions {
  /**
   * How long after its last occurrence an Event still aggregates repeats, in ms. Default
   * 600 000 (10 min, client-go's aggregation interval).
   */
  aggregationWindowMs?: number;
  /** Whether repeats can be patched onto the Event already written. Default true. */
  canPatch?: boolean;
}

/** What to write for one occurrence of an Event. */
export type Correlation =
  /** Write `event` as a new Event; call `failed` if that does not succeed. */
  | { readonly action: 'create'; readonly event: CoreEvent; readonly failed: () => void }
  /** Patch the Event `event.metadata` names with `patch` (`event` is the full Event, for a fallback create). */
  | {
      readonly action: 'patch';
      readonly event: CoreEvent;
      readonly patch: EventPatch;
      readonly failed: () => void;
    }
  /** Write nothing: the object exceeded its rate limit. `count` is the occurrences so far. */
  | { readonly action: 'skip'; readonly count: number };

interface Entry {
  name: string;
  count: number;
  firstTimestamp: string;
  lastSeen: number;
  /** Whether an Event of this name was (optimistically) written. */
  written: boolean;
}

/**
 * Decides what to write for each occurrence of an Event (client-go's `EventCorrelator`,
 * simplified):
 *
 * - Aggregation: occurrences with the same source, involved object, type, reason and message
 *   within `aggregationWindowMs` of the previous one are one Event whose `count` and
 *   `lastTimestamp` grow: the first is created, the next ones patch it. Outside the window a
 *   new Event (new name, count 1) starts.
 * - Rate limiting: each involved object (per source) has a token bucket
 *   ({@link EventSpamFilter}); an occurrence without a token is skipped, but still counted,
 *   so the next Event written carries the true count.
 *
 * Keys are kept in least-recently-used maps of `maxEntries`. Time comes from the caller.
 */
export class EventCorrelator {
  readonly #entries = new Map<string, Entry>();
  readonly #spamFilter: EventSpamFilter;
  readonly #windowMs: number;
  readonly #canPatch: boolean;
  readonly #maxEntries: number;

  constructor(options: EventCorrelatorOptions = {}) {
    this.#spamFilter = new EventSpamFilter(options);
    this.#windowMs = options.aggregationWindowMs ?? 600_000;
    this.#canPatch = options.canPatch ?? true;
    this.#maxEntries = this.#spamFilter.maxEntries;
  }

  /**
   * Correlates `event` (a fresh Event with `count` 1 and a new name) occurring at `now` ms.
   */
  correlate(event: CoreEvent, now: number): Correlation {
    const key = aggregationKey(event);
    let entry = this.#entries.get(key);
    this.#entries.delete(key);
    if (entry !== undefined && now - entry.lastSeen <= this.#windowMs) {
      entry.count += 1;
      entry.lastSeen = Math.max(now, entry.lastSeen);
    } else {
      entry = {
        name: event.metadata.name,
        count: 1,
        firstTimestamp: event.firstTimestamp,
        lastSeen: now,
        written: false,
      };
    }
    this.#entries.set(key, entry);
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }

    if (!this.#spamFilter.allow(spamKey(event), now)) {
      return { action: 'skip', count: entry.count };
    }
    const current = entry;
    if (current.written && !this.#canPatch) current.name = event.metadata.name;
    const full: CoreEvent = {
      ...event,
      metadata: { ...event.metadata, name: current.name },
      count: current.count,
      firstTimestamp: current.firstTimestamp,
    };
    const name = current.name;
    const failed = () => {
      if (this.#entries.get(key) === current && current.name === name) current.written = false;
    };
    if (current.written && this.#canPatch) {
      return {
        action: 'patch',
        event: full,
        patch: { count: full.count, lastTimestamp: full.lastTimestamp, message: full.message },
        failed,
      };
    }
    current.written = true;
    return { action: 'create', event: full, failed };
  }
}

function objectKey(event: CoreEvent): string[] {
  const object = event.involvedObject;
  return [
    event.source.component,
    event.source.host ?? '',
    object.apiVersion ?? '',
    object.kind ?? '',
    object.namespace ?? '',
    object.name ?? '',
    object.uid ?? '',
  ];
}

function aggregationKey(event: CoreEvent): string {
  return JSON.stringify([...objectKey(event), event.type, event.reason, event.message]);
}

function spamKey(event: CoreEvent): string {
  return JSON.stringify(objectKey(event));
}
