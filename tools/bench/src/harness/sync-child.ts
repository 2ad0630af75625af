/**
 * One contender of the cold-sync matrix in a fresh process: the parent forks this entry with
 * a {@link SyncJob} as its argument; it loads its library, takes the heap, syncs, takes the
 * heap again with the cache held, and answers one {@link SyncOutcome} on the IPC channel.
 * A fresh process per library and size means no library inherits another's JIT-compiled
 * code, heap or sockets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { bareWatchListVariant } from './bare-watch-list-variant.js';
import type { ServerEndpoint } from './bench-server.js';
import {
  type CacheVariant,
  clientNodeInformer,
  fluentWatch,
  opsInformerVariant,
} from './cache-variants.js';
import { settledHeapUsed } from './gc.js';
import { parsedListVariant } from './parsed-list-variant.js';
import type { SyncJob, SyncOutcome } from './sync-protocol.js';

const job = JSON.parse(process.argv[2] ?? '{}') as SyncJob;
const kubeconfig = readFileSync(job.kubeconfigPath, 'utf8');
const endpoint: ServerEndpoint = {
  url: job.url,
  kubeconfigPath: job.kubeconfigPath,
  kubeConfig: () => {
    const config = new KubeConfig();
    config.loadFromString(kubeconfig);
    return config;
  },
};

async function variantOf(): Promise<CacheVariant> {
  switch (job.contender) {
    case 'floor':
      return parsedListVariant({ plural: job.plural });
    case 'bare-http':
      return parsedListVariant({ plural: job.plural, fetchTimed: true });
    case 'bare-watch-list':
      return bareWatchListVariant(job.plural);
    case 'ops':
      return opsInformerVariant({ plural: job.plural });
    case 'ops-one-page':
      return opsInformerVariant({ plural: job.plural, pageSize: job.expected });
    case 'ops-watch-list':
    case 'ops-list':
    case 'ops-watch-list-gzip':
    case 'ops-list-gzip':
      return opsInformerVariant({
        plural: job.plural,
        id: job.contender,
        watchList: job.contender.startsWith('ops-watch-list'),
        compression: job.contender.endsWith('-gzip'),
      });
    case 'client-node':
      return clientNodeInformer(job.plural);
    case 'fluent':
      // Loaded before the heap is taken, as the others' modules are.
      process.env.KUBECONFIG = job.kubeconfigPath;
      await import('kubernetes-fluent-client');
      return fluentWatch(job.plural);
  }
}

/** `rchar` of /proc/self/io: bytes read by every thread of this process; undefined off Linux. */
function bytesReadSoFar(): number | undefined {
  if (!existsSync('/proc/self/io')) return undefined;
  const line = /^rchar:\s*(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return line?.[1] === undefined ? undefined : Number(line[1]);
}

async function measure(): Promise<SyncOutcome> {
  const variant = await variantOf();
  const before = settledHeapUsed();
  const readBefore = bytesReadSoFar();
  const cpu = process.cpuUsage();
  const cache = await variant.sync(endpoint, job.namespace, job.expected);
  const used = process.cpuUsage(cpu);
  const readAfter = bytesReadSoFar();
  await cache.settle?.();
  const after = settledHeapUsed();
  const held = cache.objects();
  await cache.stop();
  if (held !== job.expected)
    throw new Error(`${variant.label} held ${held} of ${job.expected} objects`);
  return {
    ok: true,
    ms: cache.ms,
    heapPerObject: (after - before) / job.expected,
    cpuMs: (used.user + used.system) / 1000,
    ...(readBefore === undefined || readAfter === undefined
      ? {}
      : { bytesRead: readAfter - readBefore }),
  };
}

measure().then(
  (outcome) => process.send?.(outcome, () => process.exit(0)),
  (error: unknown) =>
    process.send?.(
      { ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      () => process.exit(1),
    ),
);
