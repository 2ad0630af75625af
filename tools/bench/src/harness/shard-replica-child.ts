/**
 * One replica of the sharded-scale-out benchmark in a process of its own: the parent forks
 * this entry with a {@link ShardReplicaJob} as its argument. It runs a Manager whose one
 * controller, sharded in the job's ring by the job's key, reconciles ConfigMaps in every
 * namespace: a cache read, then `reconcileMs` of waiting (an external call). It records the
 * first reconcile of each measured object (`objectPrefix`) in each round (the parent's
 * annotations), and answers the parent's questions (`shard-protocol.ts`) until told to stop.
 */

import { Manager } from '@ops/core';
import { pino } from 'pino';
import { childEndpoint } from './child-endpoint.js';
import { collectGarbage } from './gc.js';
import {
  type ReconcileSample,
  roundAnnotation,
  type ShardChildMessage,
  type ShardParentMessage,
  type ShardReplicaJob,
  seedRound,
  writtenAtAnnotation,
} from './shard-protocol.js';
import { sleep } from './wait.js';

const job = JSON.parse(process.argv[2] ?? '{}') as ShardReplicaJob;
const endpoint = childEndpoint(job.url, job.kubeconfigPath);

function send(message: ShardChildMessage): Promise<void> {
  return new Promise((resolve) => process.send?.(message, () => resolve()));
}

/** Per round, the first reconcile of each object. */
const rounds = new Map<string, Map<string, ReconcileSample>>();
/** While paused, what held reconciles wait on. */
let hold: { released: Promise<void>; release: () => void } | undefined;
/** Reconciles held by the pause right now. */
let held = 0;
const controllerName = 'sharded-bench';

const manager = new Manager({
  kubeConfig: endpoint.kubeConfig(),
  logger: pino({ level: 'silent' }),
  metricsBindAddress: false,
  healthProbeBindAddress: false,
  leaderElectionNamespace: job.leaseNamespace,
  leaderElectionIdentity: job.identity,
  leaseDurationMs: job.leaseDurationMs,
  renewDeadlineMs: job.renewDeadlineMs,
  retryPeriodMs: job.retryPeriodMs,
  gracefulShutdownTimeoutMs: 5_000,
});
manager
  .controller(controllerName)
  .for({ apiVersion: 'v1', kind: 'ConfigMap' })
  .withOptions({
    maxConcurrentReconciles: job.workers,
    sharding: { ring: job.ring, by: job.by },
  })
  .complete(async ({ name, namespace }) => {
    // Other ConfigMaps (a namespace's kube-root-ca.crt, say) are not measured: left alone.
    if (!name.startsWith(job.objectPrefix)) return;
    if (hold !== undefined) {
      held++;
      await hold.released;
      held--;
    }
    const startedAt = Date.now();
    const object = await manager.client.get('v1', 'ConfigMap', name, namespace);
    const annotations = object.metadata?.annotations ?? {};
    const round = annotations[roundAnnotation] ?? seedRound;
    const writtenAt = Number(annotations[writtenAtAnnotation] ?? Number.NaN);
    await sleep(job.reconcileMs);
    let samples = rounds.get(round);
    if (samples === undefined) {
      samples = new Map();
      rounds.set(round, samples);
    }
    const key = `${namespace}/${name}`;
    if (!samples.has(key)) samples.set(key, [key, writtenAt, startedAt, Date.now()]);
  });

const stop = new AbortController();
const running = manager.start(stop.signal);
running.catch((error: unknown) => {
  void send({
    type: 'failed',
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  }).then(() => process.exit(1));
});

process.on('message', (message: ShardParentMessage) => {
  switch (message.type) {
    case 'count':
      void send({
        type: 'count',
        round: message.round,
        count: rounds.get(message.round)?.size ?? 0,
      });
      return;
    case 'samples':
      void send({
        type: 'samples',
        round: message.round,
        samples: [...(rounds.get(message.round)?.values() ?? [])],
      });
      return;
    case 'memory': {
      collectGarbage();
      const { heapUsed, rss } = process.memoryUsage();
      void send({ type: 'memory', heapUsed, rss });
      return;
    }
    case 'pause': {
      const { promise, resolve } = Promise.withResolvers<void>();
      hold ??= { released: promise, release: resolve };
      void send({ type: 'paused' });
      return;
    }
    case 'resume':
      hold?.release();
      hold = undefined;
      void send({ type: 'resumed' });
      return;
    case 'pending':
      void manager.metrics
        .sum('workqueue_depth', { controller: controllerName })
        .then((depth) => send({ type: 'pending', pending: depth + held }));
      return;
    case 'stop':
      stop.abort();
      void running.then(
        () => send({ type: 'stopped' }).then(() => process.exit(0)),
        () => process.exit(1),
      );
      return;
  }
});

void send({ type: 'started' });
