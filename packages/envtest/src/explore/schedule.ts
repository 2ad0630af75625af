/**
 * One disturbance of a run. Positions count the operator's requests through the fault proxy
 * from the start of the run (across its restarts): `afterWrite: 3` acts once the 3rd write's
 * answer came back from the API server.
 */
export type Perturbation =
  /** The operator crashes right after its N-th write was applied (it never sees the answer) and is restarted. */
  | { kind: 'crash'; afterWrite: number }
  /** The operator crashes right after its N-th request of any kind (a point between writes) and is restarted. */
  | { kind: 'crash-at-request'; afterRequest: number }
  /** After the N-th write, the operator's watches deliver nothing for `holdMs`, then all of it: its cache is stale. */
  | { kind: 'stale'; afterWrite: number; holdMs: number }
  /**
   * The operator crashes right after its N-th write and restarts against a replica lagging on
   * `resource`: its cache of that resource syncs from the first state it synced from in the
   * run, and what changed since reaches it `holdMs` later, while its other caches are current
   * (Sieve's stale states after a restart).
   */
  | { kind: 'stale-restart'; afterWrite: number; holdMs: number; resource: string }
  /** After the N-th write, the next `count` watch events are lost (their watch ended, its resume answered 410 Gone). */
  | { kind: 'lose-events'; afterWrite: number; count: number }
  /** After the N-th write, every watch is cut mid-stream (the operator resumes them). */
  | { kind: 'drop-watches'; afterWrite: number }
  /** After the N-th write, every watch ends and its resume is answered 410 Gone (compaction): the operator relists. */
  | { kind: 'gone'; afterWrite: number }
  /** The N-th write is refused with this code and not applied (429 with Retry-After: 1). */
  | { kind: 'write-error'; write: number; code: 409 | 429 | 500 }
  /** The N-th write is applied and then answered 504 Timeout, as a request that timed out. */
  | { kind: 'timeout-after-apply'; write: number }
  /** After the N-th write, the API server restarts (local: stops listening for 200 ms and forgets its watch history). */
  | { kind: 'apiserver-restart'; afterWrite: number }
  /**
   * The run has two replicas of the operator, with leader election: the first leads, the
   * second is a standby from the start. After the N-th write, the leader's requests on its
   * Lease are cut (its other requests still pass), so it loses leadership, possibly in the
   * middle of a reconcile, and the standby takes over.
   */
  | { kind: 'leader-loss'; afterWrite: number }
  /**
   * The operator's admission webhooks are unreachable (every connection reset) for `ms`
   * from the start of step `step` (1-based), while its objects are admitted.
   */
  | { kind: 'webhook-down'; step: number; ms: number }
  /** Each call of the operator's webhooks that starts within 3 s of step `step`'s start is answered `ms` late. */
  | { kind: 'webhook-slow'; step: number; ms: number };

/** The kinds of {@link Perturbation}. */
export type PerturbationKind = Perturbation['kind'];

/** A run's disturbances, and the seed they were drawn from. Its {@link scheduleId} replays it. */
export interface Schedule {
  seed: number;
  perturbations: Perturbation[];
}

/** Every perturbation kind, in the order quick mode tries them. */
export const perturbationKinds: readonly PerturbationKind[] = [
  'crash',
  'crash-at-request',
  'stale',
  'stale-restart',
  'lose-events',
  'drop-watches',
  'gone',
  'write-error',
  'timeout-after-apply',
  'apiserver-restart',
  'leader-loss',
  'webhook-down',
  'webhook-slow',
];

/** How long a `webhook-slow` perturbation lasts from its step's start. */
export const webhookSlowWindowMs = 3_000;

/** The write or request number a perturbation acts at. */
export function perturbationPosition(perturbation: Perturbation): number {
  switch (perturbation.kind) {
    case 'crash-at-request':
      return perturbation.afterRequest;
    case 'write-error':
    case 'timeout-after-apply':
      return perturbation.write;
    case 'webhook-down':
    case 'webhook-slow':
      return perturbation.step;
    default:
      return perturbation.afterWrite;
  }
}

function encodePerturbation(p: Perturbation): string {
  switch (p.kind) {
    case 'stale':
      return `stale@${p.afterWrite}+${p.holdMs}`;
    case 'stale-restart':
      return `stale-restart@${p.afterWrite}+${p.holdMs}~${p.resource}`;
    case 'lose-events':
      return `lose-events@${p.afterWrite}x${p.count}`;
    case 'write-error':
      return `write-error@${p.write}=${p.code}`;
    case 'webhook-down':
    case 'webhook-slow':
      return `${p.kind}@${p.step}+${p.ms}`;
    default:
      return `${p.kind}@${perturbationPosition(p)}`;
  }
}

/**
 * The schedule's id, which {@link parseScheduleId} turns back into it:
 * `<seed>:<perturbation>[,<perturbation>]`, e.g. `7:crash@3` or `12:stale@2+800,gone@5`.
 */
export function scheduleId(schedule: Schedule): string {
  return `${schedule.seed}:${schedule.perturbations.map(encodePerturbation).join(',')}`;
}

const positiveInteger = (text: string | undefined, id: string): number => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(
      `schedule id ${JSON.stringify(id)}: ${JSON.stringify(text)} is not a positive whole number; ids look like 7:crash@3 or 12:stale@2+800,write-error@4=429`,
    );
  return value;
};

/**
 * The schedule an id of {@link scheduleId} names.
 *
 * @throws {Error} naming the part that is not understood, and what ids look like.
 */
export function parseScheduleId(id: string): Schedule {
  const colon = id.indexOf(':');
  const example = 'ids look like 7:crash@3 or 12:stale@2+800,write-error@4=429';
  if (colon < 0) throw new Error(`schedule id ${JSON.stringify(id)} has no seed: ${example}`);
  const seed = Number(id.slice(0, colon));
  if (!Number.isInteger(seed) || seed < 0)
    throw new Error(
      `schedule id ${JSON.stringify(id)}: the seed is not a whole number: ${example}`,
    );
  const perturbations = id
    .slice(colon + 1)
    .split(',')
    .map((part): Perturbation => {
      const match = /^([a-z-]+)@(\d+)(?:([+x=])(\d+))?(?:~([a-z0-9.-]+))?$/.exec(part);
      const kind = match?.[1] as PerturbationKind | undefined;
      if (!match || kind === undefined || !perturbationKinds.includes(kind))
        throw new Error(
          `schedule id ${JSON.stringify(id)}: ${JSON.stringify(part)} is not a perturbation (one of ${perturbationKinds.join(', ')}): ${example}`,
        );
      const at = positiveInteger(match[2], id);
      const extra = match[4] === undefined ? undefined : positiveInteger(match[4], id);
      switch (kind) {
        case 'stale':
          return { kind, afterWrite: at, holdMs: extra ?? 500 };
        case 'stale-restart':
          if (!match[5])
            throw new Error(
              `schedule id ${JSON.stringify(id)}: stale-restart names the resource whose cache lags (stale-restart@1+800~widgets)`,
            );
          return { kind, afterWrite: at, holdMs: extra ?? 500, resource: match[5] };
        case 'lose-events':
          return { kind, afterWrite: at, count: extra ?? 1 };
        case 'write-error': {
          if (extra !== 409 && extra !== 429 && extra !== 500)
            throw new Error(
              `schedule id ${JSON.stringify(id)}: write-error takes the code 409, 429 or 500 (write-error@4=429)`,
            );
          return { kind, write: at, code: extra };
        }
        case 'timeout-after-apply':
          return { kind, write: at };
        case 'crash-at-request':
          return { kind, afterRequest: at };
        case 'webhook-down':
        case 'webhook-slow':
          if (extra === undefined)
            throw new Error(
              `schedule id ${JSON.stringify(id)}: ${kind} takes the step (1-based) and a duration in ms (${kind}@1+800)`,
            );
          return { kind, step: at, ms: extra };
        default:
          return { kind, afterWrite: at };
      }
    });
  return { seed, perturbations };
}

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same numbers. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[this.integer(0, items.length - 1)] as T;
  }
}

/** What the reference run did, which schedules are drawn from. */
export interface ReferenceShape {
  /** The reference run's writes, in order, as `<verb> <resource>` (`create configmaps`). */
  writes: readonly string[];
  /** How many requests (reads included) the reference run sent. */
  requests: number;
  /** How many of them it sent before the operator first led (no fault acts on those). */
  startupRequests: number;
  /** The resources the operator watched (`configmaps`, `widgets`), sorted. */
  watched: string[];
  /** How many steps the scenario has (default 1). */
  steps?: number;
  /** Whether the scenario serves admission webhooks (default false): webhook perturbations need them. */
  webhooks?: boolean;
  /** Kinds the run's plane cannot perform (the cluster plane cannot restart its API server): never drawn. */
  excludedKinds?: readonly PerturbationKind[];
}

/**
 * One perturbation of `kind` drawn with `random` from what the reference run did; undefined
 * when the run gives it no place (no writes; no update, patch or delete for a 409; no write
 * but Events') or the plane cannot perform it ({@link ReferenceShape.excludedKinds}).
 */
export function drawPerturbation(
  kind: PerturbationKind,
  reference: ReferenceShape,
  random: SeededRandom,
): Perturbation | undefined {
  const writes = reference.writes.length;
  if (writes === 0 || reference.excludedKinds?.includes(kind)) return undefined;
  const anyWrite = () => random.integer(1, writes);
  const writesWhere = (test: (write: string) => boolean) =>
    reference.writes.flatMap((write, index) => (test(write) ? [index + 1] : []));
  // Events are best-effort: an error on an Event write is dropped by design.
  const objectWrites = writesWhere((write) => !write.endsWith(' events'));
  switch (kind) {
    case 'crash':
      return { kind, afterWrite: anyWrite() };
    case 'crash-at-request':
      return {
        kind,
        afterRequest: random.integer(
          reference.startupRequests + 1,
          Math.max(reference.startupRequests + 1, reference.requests),
        ),
      };
    case 'stale':
      return { kind, afterWrite: anyWrite(), holdMs: random.integer(2, 12) * 100 };
    case 'stale-restart':
      if (reference.watched.length === 0) return undefined;
      return {
        kind,
        afterWrite: anyWrite(),
        holdMs: random.integer(5, 15) * 100,
        resource: random.pick(reference.watched),
      };
    case 'lose-events':
      return { kind, afterWrite: anyWrite(), count: random.integer(1, 3) };
    case 'drop-watches':
    case 'gone':
    case 'apiserver-restart':
    case 'leader-loss':
      return { kind, afterWrite: anyWrite() };
    case 'webhook-down':
      if (!reference.webhooks) return undefined;
      return {
        kind,
        step: random.integer(1, reference.steps ?? 1),
        ms: random.integer(3, 20) * 100,
      };
    case 'webhook-slow':
      if (!reference.webhooks) return undefined;
      return {
        kind,
        step: random.integer(1, reference.steps ?? 1),
        ms: random.integer(2, 15) * 100,
      };
    case 'write-error': {
      const code = random.pick([409, 429, 500] as const);
      const places =
        code === 409
          ? writesWhere(
              (write) => /^(update|patch|delete) /.test(write) && !write.endsWith(' events'),
            )
          : objectWrites;
      if (places.length === 0) return undefined;
      return { kind, write: random.pick(places), code };
    }
    case 'timeout-after-apply':
      return objectWrites.length === 0 ? undefined : { kind, write: random.pick(objectWrites) };
  }
}

/**
 * Quick mode's schedules, at most `limit`, the same for the same reference and seed. Every
 * write of the reference run is a place to: crash after it (Sieve's intermediate states);
 * answer it with a timeout after applying it; refuse it with 500, with 429, and (for updates,
 * patches and deletes) with 409. Event writes take no error (Events are best-effort). Every
 * resource the operator watched is made stale after a restart once (at a write drawn from
 * the seed). Then two of each other kind, drawn from seeds `seed + 1`, `seed + 2`, ... The
 * groups are interleaved, so that a small limit still tries each kind. With `kinds`, only
 * the schedules of those kinds (the same ones, in the same order).
 */
export function quickSchedules(
  reference: ReferenceShape,
  options: { seed: number; limit: number; kinds?: readonly PerturbationKind[] },
): Schedule[] {
  const at = (perturbation: Perturbation): Schedule => ({
    seed: options.seed,
    perturbations: [perturbation],
  });
  const groups: Schedule[][] = [[], [], [], [], []];
  reference.writes.forEach((write, index) => {
    const n = index + 1;
    groups[0]?.push(at({ kind: 'crash', afterWrite: n }));
    if (write.endsWith(' events')) return;
    groups[1]?.push(at({ kind: 'timeout-after-apply', write: n }));
    groups[2]?.push(at({ kind: 'write-error', write: n, code: 500 }));
    groups[2]?.push(at({ kind: 'write-error', write: n, code: 429 }));
    if (/^(update|patch|delete) /.test(write))
      groups[2]?.push(at({ kind: 'write-error', write: n, code: 409 }));
  });
  const random = new SeededRandom(options.seed);
  for (const resource of reference.watched) {
    if (reference.writes.length === 0) break;
    const afterWrite = random.integer(1, reference.writes.length);
    const holdMs = random.integer(5, 15) * 100;
    groups[4]?.push(at({ kind: 'stale-restart', afterWrite, holdMs, resource }));
  }
  const others = perturbationKinds.filter(
    (kind) => !['crash', 'write-error', 'timeout-after-apply', 'stale-restart'].includes(kind),
  );
  let seed = options.seed;
  for (let round = 0; round < 2; round++) {
    for (const kind of others) {
      seed++;
      const perturbation = drawPerturbation(kind, reference, new SeededRandom(seed));
      if (perturbation) groups[3]?.push({ seed, perturbations: [perturbation] });
    }
  }
  if (options.kinds !== undefined) {
    const kinds = options.kinds;
    for (const [index, group] of groups.entries())
      groups[index] = group.filter((schedule) =>
        schedule.perturbations.every((p) => kinds.includes(p.kind)),
      );
  }
  const schedules: Schedule[] = [];
  const seen = new Set<string>();
  while (schedules.length < options.limit && groups.some((group) => group.length > 0)) {
    for (const group of groups) {
      const schedule = group.shift();
      if (schedule === undefined || schedules.length >= options.limit) continue;
      const id = scheduleId(schedule);
      if (seen.has(id)) continue;
      seen.add(id);
      schedules.push(schedule);
    }
  }
  return schedules;
}

/** Exploration mode's `index`-th schedule from `baseSeed`: one or two perturbations of random kinds, at most one `leader-loss`. */
export function explorationSchedule(
  reference: ReferenceShape,
  baseSeed: number,
  index: number,
): Schedule {
  const seed = baseSeed + index;
  const random = new SeededRandom(seed);
  const count = random.next() < 0.3 ? 2 : 1;
  const perturbations: Perturbation[] = [];
  for (let attempt = 0; perturbations.length < count && attempt < 10; attempt++) {
    const drawn = drawPerturbation(random.pick(perturbationKinds), reference, random);
    // One leader loss per run: the run has two replicas and the deposed one exits for good,
    // so a second loss would have no replica to take over.
    const secondLeaderLoss =
      drawn?.kind === 'leader-loss' && perturbations.some((p) => p.kind === 'leader-loss');
    if (drawn && !secondLeaderLoss) perturbations.push(drawn);
  }
  return { seed, perturbations };
}
