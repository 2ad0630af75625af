import pino, { type Logger } from 'pino';
import { type Clock, realClock } from '../clock/clock.js';
import { abortableSleep } from '../controller/abortable-sleep.js';
import type { KubeTransport } from '../transport/kube-transport.js';

/** Options of a {@link LeaderElector}. */
export interface LeaderElectionOptions {
  transport: KubeTransport;
  /** Namespace and name of the coordination.k8s.io/v1 Lease. */
  namespace: string;
  name: string;
  /** This candidate's identity (default: hostname + random suffix). */
  identity: string;
  /**
   * How long a lease is valid without renewal (default 15 s). The Lease records it in whole
   * seconds, rounded up.
   */
  leaseDurationMs?: number;
  /** How long the leader keeps trying to renew before giving up (default 10 s). */
  renewDeadlineMs?: number;
  /** Pause between attempts (default 2 s). */
  retryPeriodMs?: number;
  /** Hand the lease back on graceful shutdown so a successor takes over at once (default true). */
  releaseOnCancel?: boolean;
  /**
   * Labels the Lease carries (default none): set when this candidate creates it and added
   * when it acquires or renews it, e.g. the ring label of a shard Lease, so that
   * `kubectl get leases -l <label>` finds it.
   */
  labels?: Record<string, string>;
  /**
   * Annotations written with every create, acquire and renew (default none), read afresh each
   * time: how a holder publishes a little state beside its Lease (a shard's acknowledged ring
   * generation), visible to others within one retry period, or at once after
   * {@link LeaderElector.renewSoon}.
   */
  annotations?: () => Record<string, string>;
  logger?: Logger;
  clock?: Clock;
}

/** What a leader does. */
export interface LeaderCallbacks {
  /** Called once leadership is acquired; `signal` aborts when it is lost or the elector stops. */
  onStartedLeading(signal: AbortSignal): void | Promise<void>;
  /** Called once when leadership ends (lost or released). */
  onStoppedLeading?(): void;
  /** Called whenever a new leader is observed (including this candidate). */
  onNewLeader?(identity: string): void;
}

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

interface Lease {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  spec: LeaseSpec;
}

/** RFC 3339 with microseconds, as `metav1.MicroTime` serialises. */
export function microTime(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A Lease's timing: how long it holds, the deadline to renew it, the wait between tries. */
export interface LeaseTiming {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}

/** controller-runtime's Lease timing: 15 s, 10 s, 2 s. */
export const defaultLeaseTiming: Readonly<LeaseTiming> = Object.freeze({
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
});

/** The timing `given` sets, each value it leaves unset {@link defaultLeaseTiming}'s. */
export function leaseTiming(given: Partial<LeaseTiming>): LeaseTiming {
  return {
    leaseDurationMs: given.leaseDurationMs ?? defaultLeaseTiming.leaseDurationMs,
    renewDeadlineMs: given.renewDeadlineMs ?? defaultLeaseTiming.renewDeadlineMs,
    retryPeriodMs: given.retryPeriodMs ?? defaultLeaseTiming.retryPeriodMs,
  };
}

/**
 * Leader election on a Lease, with client-go's algorithm: a candidate acquires the lease
 * when it is free, released, or not renewed for `leaseDuration` (judged by when this candidate
 * last saw it change, so clocks need not agree); the leader renews every `retryPeriod` and
 * steps down when it could not renew within `renewDeadline`. Writes use the Lease's
 * resourceVersion, so two candidates never both win.
 *
 * Guarantees: `onStartedLeading` runs at most once per `run`; its signal aborts before
 * `onStoppedLeading`; with `releaseOnCancel`, stopping hands the lease back (empty holder,
 * 1 s duration) so another candidate takes over within one retry period.
 */
export class LeaderElector {
  private readonly options: Required<
    Omit<LeaderElectionOptions, 'logger' | 'clock' | 'labels' | 'annotations'>
  >;
  private readonly labels: Record<string, string> | undefined;
  private readonly annotations: (() => Record<string, string>) | undefined;
  /** Ends the renew loop's wait early ({@link renewSoon}); set while it waits. */
  private wake: (() => void) | undefined;
  private readonly log: Logger;
  private readonly clock: Clock;
  private observed: { spec: string; at: number; lease?: Lease } = { spec: '', at: 0 };
  private leading = false;

  constructor(options: LeaderElectionOptions) {
    this.options = { ...defaultLeaseTiming, releaseOnCancel: true, ...options };
    const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = this.options;
    if (!(leaseDurationMs > renewDeadlineMs && renewDeadlineMs > retryPeriodMs * 1.2)) {
      throw new Error(
        `leader election needs leaseDuration > renewDeadline > 1.2 × retryPeriod; got ${leaseDurationMs} / ${renewDeadlineMs} / ${retryPeriodMs} ms`,
      );
    }
    this.log = (options.logger ?? pino({ level: 'silent' })).child({
      lease: `${options.namespace}/${options.name}`,
      identity: options.identity,
    });
    this.clock = options.clock ?? realClock;
    this.labels = options.labels;
    this.annotations = options.annotations;
  }

  /** Whether this candidate currently holds the lease. */
  isLeader(): boolean {
    return this.leading;
  }

  /**
   * While leading, renews the Lease now instead of at the end of the retry period (its
   * `annotations` read afresh), as when what they say changed and others wait for it; the
   * next renewal follows a retry period after. Does nothing when not leading; during a
   * renewal already under way (which carries what the annotations said when it started),
   * the change goes with the next one, a retry period later at most.
   */
  renewSoon(): void {
    this.wake?.();
  }

  /** The identity of the holder last observed. */
  observedLeader(): string {
    return this.observed.lease?.spec.holderIdentity ?? '';
  }

  /**
   * Campaigns until `signal` aborts: acquires, leads (calling `onStartedLeading`), renews,
   * and on loss or abort stops leading. Resolves when done (after releasing the lease).
   */
  async run(signal: AbortSignal, callbacks: LeaderCallbacks): Promise<void> {
    const { retryPeriodMs, renewDeadlineMs } = this.options;
    while (!signal.aborted && !(await this.tryAcquireOrRenew(callbacks))) {
      await abortableSleep(retryPeriodMs * (1 + Math.random() * 0.2), signal);
    }
    if (signal.aborted) return;
    this.leading = true;
    this.log.info('became leader');
    const leadership = new AbortController();
    const onAbort = () => leadership.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const leader = Promise.resolve()
      .then(() => callbacks.onStartedLeading(leadership.signal))
      .catch((error: unknown) => this.log.error({ err: error }, 'onStartedLeading failed'));
    let lastRenew = this.clock.now();
    while (!signal.aborted) {
      // One retry period, or less when stopped or asked to renew soon.
      const waiting = new AbortController();
      const stop = () => waiting.abort();
      signal.addEventListener('abort', stop, { once: true });
      this.wake = stop;
      await abortableSleep(retryPeriodMs, waiting.signal);
      this.wake = undefined;
      signal.removeEventListener('abort', stop);
      if (signal.aborted) break;
      if (await this.tryAcquireOrRenew(callbacks)) {
        lastRenew = this.clock.now();
      } else if (this.clock.now() - lastRenew > renewDeadlineMs) {
        this.log.error({ renewDeadlineMs }, 'could not renew the lease in time; stepping down');
        break;
      }
    }
    signal.removeEventListener('abort', onAbort);
    leadership.abort();
    this.leading = false;
    await leader;
    if (signal.aborted && this.options.releaseOnCancel) await this.release();
    callbacks.onStoppedLeading?.();
    this.log.info('stopped leading');
  }

  private path(name?: string): string {
    const base = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.options.namespace)}/leases`;
    return name ? `${base}/${encodeURIComponent(name)}` : base;
  }

  private note(lease: Lease, callbacks: LeaderCallbacks): void {
    const spec = JSON.stringify(lease.spec);
    if (spec !== this.observed.spec) {
      const previous = this.observed.lease?.spec.holderIdentity;
      this.observed = { spec, at: this.clock.now(), lease };
      const holder = lease.spec.holderIdentity ?? '';
      if (holder && holder !== previous) callbacks.onNewLeader?.(holder);
    } else {
      this.observed.lease = lease;
    }
  }

  private async tryAcquireOrRenew(callbacks: LeaderCallbacks): Promise<boolean> {
    const { transport, identity, leaseDurationMs, name, namespace } = this.options;
    const now = this.clock.now();
    const wall = Date.now();
    const desired: LeaseSpec = {
      holderIdentity: identity,
      // Whole seconds, rounded up: other candidates judge expiry by this record alone, so it
      // must never say less than the lease this leader keeps (rounded to nearest, 1.4 s read
      // as 1 s and 400 ms as 0 s: others could take over while this leader still leads).
      leaseDurationSeconds: Math.max(1, Math.ceil(leaseDurationMs / 1000)),
      acquireTime: microTime(wall),
      renewTime: microTime(wall),
      leaseTransitions: 0,
    };
    try {
      const current = await transport.request({
        method: 'GET',
        path: this.path(name),
        timeoutMs: this.options.retryPeriodMs * 2,
      });
      if (current.status === 404) {
        const created = await transport.request({
          method: 'POST',
          path: this.path(),
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: {
              name,
              namespace,
              ...(this.labels ? { labels: this.labels } : {}),
              ...(this.annotations ? { annotations: this.annotations() } : {}),
            },
            spec: desired,
          },
          timeoutMs: this.options.retryPeriodMs * 2,
        });
        if (created.status !== 201) return false;
        this.note(JSON.parse(created.text) as Lease, callbacks);
        return true;
      }
      if (current.status !== 200) {
        this.log.warn(
          { status: current.status, body: current.text.slice(0, 300) },
          'could not read the lease',
        );
        return false;
      }
      const lease = JSON.parse(current.text) as Lease;
      this.note(lease, callbacks);
      const holder = lease.spec.holderIdentity ?? '';
      const held = holder !== '' && holder !== identity;
      const validUntil = this.observed.at + (lease.spec.leaseDurationSeconds ?? 0) * 1000;
      if (held && now < validUntil) return false;
      const spec: LeaseSpec = {
        ...desired,
        acquireTime:
          holder === identity
            ? (lease.spec.acquireTime ?? desired.acquireTime)
            : desired.acquireTime,
        leaseTransitions: (lease.spec.leaseTransitions ?? 0) + (holder === identity ? 0 : 1),
      };
      const updated = await transport.request({
        method: 'PUT',
        path: this.path(name),
        body: {
          ...lease,
          metadata: {
            ...lease.metadata,
            ...(this.labels ? { labels: { ...lease.metadata.labels, ...this.labels } } : {}),
            ...(this.annotations
              ? { annotations: { ...lease.metadata.annotations, ...this.annotations() } }
              : {}),
          },
          spec,
        },
        timeoutMs: this.options.retryPeriodMs * 2,
      });
      if (updated.status !== 200) return false;
      this.note(JSON.parse(updated.text) as Lease, callbacks);
      return true;
    } catch (error) {
      this.log.warn({ err: error }, 'lease request failed');
      return false;
    }
  }

  private async release(): Promise<void> {
    const lease = this.observed.lease;
    if (lease === undefined || lease.spec.holderIdentity !== this.options.identity) return;
    const wall = microTime(Date.now());
    try {
      const released = await this.options.transport.request({
        method: 'PUT',
        path: this.path(this.options.name),
        body: {
          ...lease,
          spec: {
            ...lease.spec,
            holderIdentity: '',
            leaseDurationSeconds: 1,
            renewTime: wall,
            acquireTime: wall,
          },
        },
        timeoutMs: 5_000,
      });
      if (released.status === 200) this.log.info('released the lease');
      else
        this.log.warn(
          { status: released.status },
          'could not release the lease; a successor waits for it to expire',
        );
    } catch (error) {
      this.log.warn(
        { err: error },
        'could not release the lease; a successor waits for it to expire',
      );
    }
  }
}
