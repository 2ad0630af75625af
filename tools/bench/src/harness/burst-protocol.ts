/**
 * What the event-burst benchmark and its child processes say to each other: one process per
 * watching library ({@link BurstWatchJob}), one writer ({@link BurstWriteJob}). Times are
 * {@link sharedClockMs} readings, comparable across the processes.
 */

/**
 * The libraries the event-burst benchmark measures, each in a process of its own, and
 * `bare`: a WATCH over node:http whose lines are parsed into a Map by name (the floor).
 */
export type BurstContender = 'bare' | 'ops' | 'client-node' | 'fluent';

/** Every contender, in the order reports list them. */
export const burstContenders: readonly BurstContender[] = ['bare', 'ops', 'client-node', 'fluent'];

/** The annotation each patch sets: `base + seq`, as a decimal string. */
export const burstSeqAnnotation = 'bench.ops.dev/burst-seq';

/** What the parent asks of one watching child (its one command-line argument, as JSON). */
export interface BurstWatchJob {
  contender: BurstContender;
  url: string;
  /** The admin kubeconfig's path. */
  kubeconfigPath: string;
  namespace: string;
  /** ConfigMaps the namespace holds: the sync must end with exactly these. */
  objects: number;
  /** Patches the writer sends: the child waits for an update carrying each one. */
  patches: number;
  /**
   * The number the writer adds to each patch's sequence number, different in every round,
   * so that no patch sets an annotation to the value it already has (which would change
   * nothing and send no event).
   */
  base: number;
}

/** What the parent asks of the writer child (its one command-line argument, as JSON). */
export interface BurstWriteJob {
  url: string;
  kubeconfigPath: string;
  namespace: string;
  /** The ConfigMaps are `<prefix>-0` ... `<prefix>-<objects - 1>`. */
  prefix: string;
  objects: number;
  /** Patch `seq` (0 ... patches - 1) goes to ConfigMap `seq % objects`. */
  patches: number;
  base: number;
  /** Patches in flight at once. */
  concurrency: number;
}

/** Parent to watching child: `go` just before the writer starts; `finish` to give up waiting. */
export type BurstParentMessage = { type: 'go' } | { type: 'finish' };

/** What a watching child counted from `go` to its last update (or to `finish`). */
export interface BurstWatchCounts {
  /** Updates received that carry a sequence number of this round (duplicates included). */
  updates: number;
  /** Distinct sequence numbers among them: `patches` when every update was seen. */
  distinct: number;
  /** {@link sharedClockMs} when the last update was received; NaN when none was. */
  lastUpdateAt: number;
  /** CPU time (user + system) of the process from `go` to the last update, in ms. */
  cpuMs: number;
  /** Milliseconds the sync before `go` took. */
  syncMs: number;
}

/** Watching child to parent: `synced` once its cache holds every object, then `done` or `failed`. */
export type BurstChildMessage =
  | { type: 'synced' }
  | ({ type: 'done' } & BurstWatchCounts)
  | { type: 'failed'; error: string };

/** The writer's one answer. */
export type BurstWriteOutcome =
  | {
      ok: true;
      /** {@link sharedClockMs} when the first patch was sent. */
      firstSentAt: number;
      /** {@link sharedClockMs} when the last response arrived. */
      lastRespondedAt: number;
    }
  | { ok: false; error: string };
