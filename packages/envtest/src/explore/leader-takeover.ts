import type { ProxiedRequest } from './fault-proxy.js';

/**
 * The Lease timing of an explored operator's replicas when a schedule has a `leader-loss`:
 * short, so that a takeover takes seconds (`@ops/core`'s defaults are 15 s / 10 s / 2 s), and
 * within core's rule `leaseDuration > renewDeadline > 1.2 × retryPeriod`. The margin core's
 * safety rests on, `leaseDuration − renewDeadline − retryPeriod`, is half a second.
 */
export const explorerLeaseTiming = Object.freeze({
  leaseDurationMs: 3_000,
  renewDeadlineMs: 2_000,
  retryPeriodMs: 500,
});

/** The name of the explored operator's election Lease, in the scenario's namespace. */
export const explorerLeaseName = 'explore-operator-leader';

/**
 * How long after its Lease renewals were cut a deposed replica may still run, and a standby
 * may take to lead: four lease durations (core steps down after the renew deadline, a
 * standby acquires a lease unrenewed for its duration; the rest is room for a loaded machine).
 */
export const takeoverBoundMs = 4 * explorerLeaseTiming.leaseDurationMs;

/** What {@link LeaderTakeover} needs to know of one replica of the operator. */
export interface Replica {
  /** Its identity in the Lease (`replica-1`, ...). */
  identity: string;
  /** Whether its manager leads now (undefined before its manager exists). */
  isLeader(): boolean;
  /** Settles with the error its manager's `start` rejected with, once it has. */
  exited: Promise<{ error?: unknown }>;
  /** Whether it was severed (crashed): a crashed replica is no candidate. */
  crashed(): boolean;
}

interface Tracked {
  replica: Replica;
  /** Whether it was ever seen leading. */
  led: boolean;
  /** Set once it settled. */
  exit?: { error?: unknown };
}

/**
 * The oracle of a run with replicas under leader election, and the bookkeeping of who leads.
 *
 * The contract tested is `@ops/core`'s (its `LeaderElector` and `Manager`): a leader renews
 * its Lease every retry period and, when it could not renew within the renew deadline, stops
 * leading: its controllers' reconcile signals abort, no reconcile starts any more, the
 * reconciles in flight are let finish, and its `start` rejects with `leader election lost`
 * (the process exits, as controller-runtime's does). A standby acquires the Lease only once
 * it has not been renewed for the lease duration, which is longer than the renew deadline,
 * so that the old leader has stopped by then. Hence:
 *
 * - a replica that has never led (a standby) writes nothing;
 * - a replica that lost leadership may finish its reconciles in flight, but writes nothing
 *   once the new leader has written (then two replicas write the same objects at once);
 * - no two replicas lead at once when one writes;
 * - once its renewals are cut, the leader's manager exits with core's `leader election lost`
 *   error, and another replica leads, both within {@link takeoverBoundMs}.
 *
 * Writes on the election Lease itself are the election's, not the operator's: the fault
 * proxy does not show them here.
 */
export class LeaderTakeover {
  private readonly replicas: Tracked[] = [];
  /** The replica seen leading last, and whether it has written since it took over. */
  private leader: { tracked: Tracked; wrote: string | undefined } | undefined;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly violation: (text: string) => void) {}

  /** Adds a replica (the first leader, a standby, or one restarted after a crash). */
  add(replica: Replica): void {
    const tracked: Tracked = { replica, led: false };
    this.replicas.push(tracked);
    void replica.exited.then((exit) => {
      tracked.exit = exit;
    });
    this.observe();
  }

  /**
   * The replica that leads now, when one does and it is not crashed; notes who led. Call it
   * often (the run polls it): a change of leader is seen at its next call.
   */
  observe(): Replica | undefined {
    let leading: Tracked | undefined;
    for (const tracked of this.replicas) {
      if (tracked.replica.crashed() || !tracked.replica.isLeader()) continue;
      tracked.led = true;
      leading = tracked;
    }
    if (leading !== undefined && this.leader?.tracked !== leading)
      this.leader = { tracked: leading, wrote: undefined };
    return leading?.replica;
  }

  /** Checks a write of `replica` as it reaches its fault proxy (before it is applied). */
  onWrite(replica: Replica, request: ProxiedRequest): void {
    this.observe();
    const tracked = this.replicas.find((entry) => entry.replica === replica);
    if (tracked === undefined) return;
    const write = `#${request.writeNumber} ${request.verb} ${request.resource} ${request.namespace}/${request.name}`;
    if (replica.isLeader()) {
      const other = this.replicas.find(
        (entry) => entry !== tracked && !entry.replica.crashed() && entry.replica.isLeader(),
      );
      if (other !== undefined)
        this.violation(
          `split brain: ${replica.identity} wrote ${write} while ${other.replica.identity} also led`,
        );
      if (this.leader?.tracked === tracked) this.leader.wrote ??= write;
      return;
    }
    if (!tracked.led) {
      this.violation(
        `${replica.identity}, a standby that never led, wrote ${write}: work that writes must run only on the leader (a controller, or a runnable that needs leader election)`,
      );
      return;
    }
    const leader = this.leader;
    if (leader !== undefined && leader.tracked !== tracked && leader.wrote !== undefined)
      this.violation(
        `${replica.identity} wrote ${write} after it lost leadership and after the new leader ${leader.tracked.replica.identity} had written (${leader.wrote}): its reconcile went on past its aborted signal`,
      );
  }

  /**
   * The Lease renewals of `deposed` were cut now: from here, it must exit with core's
   * `leader election lost` and another replica must lead, within {@link takeoverBoundMs};
   * {@link settled} waits for that.
   */
  cut(deposed: Replica): void {
    const tracked = this.replicas.find((entry) => entry.replica === deposed);
    if (tracked === undefined) return;
    const deadline = Date.now() + takeoverBoundMs;
    this.pending = this.pending.then(async () => {
      for (;;) {
        const successor = this.observe();
        // A deposed replica that crashed meanwhile (a second perturbation) exited by its crash.
        const gone = tracked.exit !== undefined || deposed.crashed();
        const done = gone && successor !== undefined;
        if (done || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const { exit } = tracked;
      if (deposed.crashed()) {
        // Its end was the crash's, not core's: nothing to check of it.
      } else if (exit === undefined)
        this.violation(
          `${deposed.identity} still ran ${takeoverBoundMs} ms after its Lease renewals were cut: @ops/core's manager stops leading after its renew deadline (${explorerLeaseTiming.renewDeadlineMs} ms) and its start rejects (leader election lost)`,
        );
      else if (!/leader election lost/.test(String((exit.error as Error | undefined)?.message)))
        this.violation(
          `${deposed.identity}'s manager ended otherwise than with "leader election lost" after its Lease renewals were cut: ${exit.error === undefined ? 'it stopped without an error' : String((exit.error as Error).message ?? exit.error)}`,
        );
      const successor = this.observe();
      if (successor === undefined || successor === deposed)
        this.violation(
          `no other replica took over within ${takeoverBoundMs} ms after ${deposed.identity}'s Lease renewals were cut`,
        );
    });
  }

  /** Resolves once every takeover begun by {@link cut} is over (its oracle checked). */
  settled(): Promise<void> {
    return this.pending;
  }
}
