import { type ChildProcess, spawn } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@ops/api';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LeaderElector } from '../../src/leader-election/leader-election.js';
import { Manager } from '../../src/manager/manager.js';
import { KubeTransport } from '../../src/transport/kube-transport.js';
import {
  eventually,
  type FaultyApiServer,
  sleep,
  startFaultyApiServer,
} from './faulty-api-server.js';

/**
 * Leader election across several handovers: candidates share one Lease and run a controller
 * that reconciles all the time while leading, logging when each reconcile starts and ends.
 * Whatever happens — a leader stopped gracefully, or one killed with SIGKILL (it never
 * releases the Lease) — no two candidates ever reconcile at the same time; a graceful stop
 * hands over within about one retry period (the Lease is released); after a crash the
 * successor waits for the Lease to expire, and then takes over.
 */

const namespace = 'election';
const leaseName = 'ticker-leader';
const timing = { leaseDurationMs: 1_500, renewDeadlineMs: 1_000, retryPeriodMs: 200 };
const reconcileMs = 15;
const candidateScript = fileURLToPath(new URL('./leader-candidate.mjs', import.meta.url));
const builtCore = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** One line of the shared log: a candidate started or finished a reconcile. */
interface LogEntry {
  who: string;
  event: 'reconcile-start' | 'reconcile-end';
  at: number;
}

interface LeaseObject extends KubernetesObject {
  spec?: {
    holderIdentity?: string;
    leaseDurationSeconds?: number;
    acquireTime?: string;
    renewTime?: string;
  };
}

/** A running candidate: in this process, or in a child process that can be killed. */
interface Candidate {
  who: string;
  /** Graceful stop (abort / SIGTERM); resolves once it has stopped, releasing the Lease. */
  stop(): Promise<void>;
  /** Settles when the candidate's manager stops: rejects when it failed (lost the lease...). */
  done: Promise<void>;
  /** How many abort listeners the signal given to `manager.start` holds (in-process only). */
  abortListeners?(): number;
}

let cluster: FaultyApiServer;
const log: LogEntry[] = [];

beforeAll(async () => {
  if (!existsSync(builtCore)) {
    throw new Error(
      `${builtCore} is missing; the crashing candidate runs the built package: cd packages/core && ./node_modules/.bin/tsup`,
    );
  }
  cluster = await startFaultyApiServer();
  await cluster.admin.create({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: namespace },
  });
  await cluster.admin.create({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'tick', namespace },
  });
});

const running: Candidate[] = [];
afterAll(async () => {
  await Promise.allSettled(running.map((candidate) => candidate.stop()));
  await cluster?.stop();
});

function startInProcess(
  who: string,
  election: { lease: string; timing: typeof timing } = { lease: leaseName, timing },
): Candidate {
  const manager = new Manager({
    kubeConfig: cluster.server.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace,
    leaderElection: true,
    leaderElectionId: election.lease,
    leaderElectionNamespace: namespace,
    leaderElectionIdentity: who,
    ...election.timing,
  });
  manager
    .controller('ticker')
    .for({ apiVersion: 'v1', kind: 'ConfigMap' })
    .complete(async () => {
      log.push({ who, event: 'reconcile-start', at: Date.now() });
      await sleep(reconcileMs);
      log.push({ who, event: 'reconcile-end', at: Date.now() });
      return { requeueAfterMs: 1 };
    });
  const abort = new AbortController();
  const done = manager.start(abort.signal);
  done.catch(() => undefined);
  const candidate: Candidate = {
    who,
    stop: async () => {
      abort.abort();
      await done;
    },
    done,
    abortListeners: () => getEventListeners(abort.signal, 'abort').length,
  };
  running.push(candidate);
  return candidate;
}

/** A candidate in a child process, on the built package; `kill()` SIGKILLs it. */
function startInChild(who: string): Candidate & { kill(): Promise<number> } {
  const child: ChildProcess = spawn(process.execPath, [candidateScript], {
    env: {
      ...process.env,
      KUBECONFIG: cluster.server.kubeconfigPath,
      CANDIDATE: JSON.stringify({ identity: who, leaseName, namespace, reconcileMs, ...timing }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let buffered = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf('\n');
      const entry = JSON.parse(line) as { event: string; at: number; message?: string };
      if (entry.event === 'reconcile-start' || entry.event === 'reconcile-end')
        log.push({ who, event: entry.event, at: entry.at });
      else output += `${line}\n`;
    }
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const done = exited.then(({ code, signal }) => {
    if (code !== 0 && signal !== 'SIGKILL')
      throw new Error(`candidate ${who} exited with ${code ?? signal}:\n${output}`);
  });
  done.catch(() => undefined);
  const candidate = {
    who,
    done,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await done;
    },
    /** Kills the process; resolves with the time it was seen dead. */
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
      return Date.now();
    },
  };
  running.push(candidate);
  return candidate;
}

/** The reconcile intervals of the log; one still open ends at `openUntil[who]`. */
function intervals(openUntil: Record<string, number> = {}) {
  const open = new Map<string, number>();
  const closed: Array<{ who: string; start: number; end: number }> = [];
  for (const entry of log) {
    if (entry.event === 'reconcile-start') open.set(entry.who, entry.at);
    else {
      closed.push({ who: entry.who, start: open.get(entry.who) ?? entry.at, end: entry.at });
      open.delete(entry.who);
    }
  }
  for (const [who, start] of open) closed.push({ who, start, end: openUntil[who] ?? Date.now() });
  return closed.sort((a, b) => a.start - b.start);
}

/** Pairs of intervals of different candidates that overlap in time. */
function overlaps(openUntil: Record<string, number> = {}): string[] {
  const found: string[] = [];
  const all = intervals(openUntil);
  for (let i = 0; i < all.length; i++) {
    const a = all[i];
    for (let j = i + 1; j < all.length; j++) {
      const b = all[j];
      if (a === undefined || b === undefined || b.start >= a.end) break;
      if (a.who !== b.who)
        found.push(`${a.who} [${a.start}, ${a.end}] overlaps ${b.who} [${b.start}, ${b.end}]`);
    }
  }
  return found;
}

/** The first reconcile start after `since` (by anyone), once there is one. */
async function nextReconcilerAfter(since: number): Promise<LogEntry> {
  let found: LogEntry | undefined;
  await eventually(
    () => {
      found = log.find((entry) => entry.event === 'reconcile-start' && entry.at > since);
      return found !== undefined;
    },
    () => 'nobody took over',
    15_000,
  );
  return found as LogEntry;
}

const readLease = () =>
  cluster.admin.get<LeaseObject>('coordination.k8s.io/v1', 'Lease', leaseName, namespace);

describe('leader election', () => {
  beforeEach(() => {
    log.length = 0;
  });

  it('never lets two candidates reconcile at once, hands over at once on a graceful stop, and after the lease expires on a crash', async () => {
    // A candidate in a child process leads first.
    const crashing = startInChild('crashing');
    await nextReconcilerAfter(0);
    expect(log[0]?.who).toBe('crashing');

    // Two more candidates join; for longer than a lease duration, the leader keeps renewing
    // and they do not take over.
    const a = startInProcess('a');
    const b = startInProcess('b');
    const joined = Date.now();
    await sleep(timing.leaseDurationMs * 2);
    expect(
      log.filter((entry) => entry.at > joined).every((entry) => entry.who === 'crashing'),
    ).toBe(true);
    expect((await readLease()).spec?.holderIdentity).toBe('crashing');

    // Crash: SIGKILL, no release. The Lease still names the dead leader...
    const killedAt = await crashing.kill();
    const orphaned = await readLease();
    expect(orphaned.spec?.holderIdentity).toBe('crashing');
    // ...until it expires, and then a successor takes over.
    const afterCrash = await nextReconcilerAfter(killedAt);
    expect(['a', 'b']).toContain(afterCrash.who);
    const leaseMs = (orphaned.spec?.leaseDurationSeconds ?? 0) * 1000;
    expect(leaseMs).toBeGreaterThanOrEqual(timing.leaseDurationMs);
    const acquired = await readLease();
    expect(acquired.spec?.holderIdentity).toBe(afterCrash.who);
    // The successor acquired only once the dead leader's last renewal had expired (both
    // times are wall-clock times written into the Lease by processes on this machine)...
    expect(Date.parse(acquired.spec?.acquireTime ?? '')).toBeGreaterThanOrEqual(
      Date.parse(orphaned.spec?.renewTime ?? '') + leaseMs,
    );
    // ...and not much later: within the lease duration plus a few retry periods.
    const crashTakeoverMs = afterCrash.at - killedAt;
    expect(crashTakeoverMs).toBeLessThan(leaseMs + 10 * timing.retryPeriodMs);

    // Graceful handovers: the leader stops, releasing the Lease; a waiting candidate takes
    // over within about one retry period — well before the lease would have expired.
    const c = startInProcess('c');
    await sleep(timing.leaseDurationMs);
    const handovers: number[] = [];
    const listeners: number[] = [];
    const candidates = new Map([
      ['a', a],
      ['b', b],
      ['c', c],
    ]);
    let leader = afterCrash.who;
    for (let handover = 0; handover < 2; handover++) {
      const current = candidates.get(leader);
      if (current === undefined) throw new Error(`unknown leader ${leader}`);
      candidates.delete(leader);
      const stoppedAt = Date.now();
      await current.stop();
      const next = await nextReconcilerAfter(stoppedAt);
      expect([...candidates.keys()]).toContain(next.who);
      handovers.push(next.at - stoppedAt);
      expect(next.at - stoppedAt).toBeLessThan(timing.leaseDurationMs);
      leader = next.who;
      await sleep(timing.leaseDurationMs);
      // A leader renewing every retry period leaves no listener behind on its stop signal.
      listeners.push(candidates.get(leader)?.abortListeners?.() ?? 0);
    }
    await candidates.get(leader)?.stop();
    // (runLeader's wait for the stop, and the elector's: nothing per renewal)
    expect(Math.max(...listeners)).toBeLessThanOrEqual(3);

    // Across the whole run, reconciles of different candidates never overlapped; every
    // in-process manager stopped cleanly (none lost its lease).
    expect(overlaps({ crashing: killedAt })).toEqual([]);
    await Promise.all([a.done, b.done, c.done]);
    const leaders = intervals({ crashing: killedAt })
      .map((interval) => interval.who)
      .filter((who, i, all) => i === 0 || all[i - 1] !== who);
    expect(leaders).toHaveLength(4);
    expect(new Set(leaders).size).toBe(4);
    console.info(
      `leader election: leaders ${leaders.join(' → ')}; takeover ${crashTakeoverMs} ms after SIGKILL, ${handovers.join(' and ')} ms after graceful stops`,
    );
  }, 60_000);

  it('renews at once when asked, with its annotations read afresh, instead of a retry period later', async () => {
    // A retry period of a minute: a renewal within this test's 20 s is renewSoon's doing.
    const slow = { leaseDurationMs: 200_000, renewDeadlineMs: 100_000, retryPeriodMs: 60_000 };
    let said = 'first';
    const transport = new KubeTransport(cluster.server.kubeConfig);
    const elector = new LeaderElector({
      transport,
      namespace,
      name: 'renew-soon',
      identity: 'holder',
      annotations: () => ({ 'example.com/says': said }),
      ...slow,
    });
    const stop = new AbortController();
    let leading: () => void = () => undefined;
    const led = new Promise<void>((resolve) => {
      leading = resolve;
    });
    const running = elector.run(stop.signal, {
      onStartedLeading: async () => leading(),
    });
    const annotation = async () =>
      (
        await cluster.admin.get<LeaseObject>(
          'coordination.k8s.io/v1',
          'Lease',
          'renew-soon',
          namespace,
        )
      ).metadata?.annotations?.['example.com/says'];
    try {
      await led;
      expect(await annotation()).toBe('first');
      said = 'second';
      elector.renewSoon();
      await eventually(
        async () => (await annotation()) === 'second',
        () => 'the Lease to say second',
        15_000,
      );
    } finally {
      stop.abort();
      await running;
      transport.close();
    }
  }, 20_000);

  it('records at least the configured lease duration in the Lease, even below a second', async () => {
    // Other candidates judge expiry by the Lease's whole leaseDurationSeconds alone: a record
    // shorter than the lease the leader keeps (900 ms rounded to 0 s, say) would let them take
    // over while the leader, still within its renew deadline, goes on reconciling. The renew
    // deadline leaves a busy CI machine most of a second per renewal.
    const short = { leaseDurationMs: 900, renewDeadlineMs: 800, retryPeriodMs: 100 };
    const election = { lease: 'short-lease', timing: short };
    const first = startInProcess('first', election);
    await nextReconcilerAfter(0);
    const second = startInProcess('second', election);
    await sleep(2_000);
    const lease = await cluster.admin.get<LeaseObject>(
      'coordination.k8s.io/v1',
      'Lease',
      'short-lease',
      namespace,
    );
    await Promise.all([first.stop(), second.stop()]);
    expect(lease.spec?.holderIdentity).toBe('first');
    expect((lease.spec?.leaseDurationSeconds ?? 0) * 1000).toBeGreaterThanOrEqual(
      short.leaseDurationMs,
    );
    expect(overlaps()).toEqual([]);
  }, 30_000);
});
