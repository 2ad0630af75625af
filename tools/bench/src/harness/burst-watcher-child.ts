/**
 * One library of the event-burst benchmark in a fresh process: the parent forks this entry
 * with a {@link BurstWatchJob} as its argument. It syncs the namespace's ConfigMaps with its
 * library, answers `synced`, takes the process's CPU time at `go` (sent just before the writer
 * starts), counts every update that carries a sequence number of this round, and answers
 * `done` once it has seen all of them (or at `finish`), with the CPU time up to the last one.
 */

import { bareWatchVariant } from './bare-watch-variant.js';
import {
  type BurstChildMessage,
  type BurstParentMessage,
  type BurstWatchJob,
  burstSeqAnnotation,
} from './burst-protocol.js';
import {
  type CacheVariant,
  clientNodeInformer,
  fluentWatch,
  opsInformerVariant,
  type UpdatedObject,
} from './cache-variants.js';
import { childEndpoint } from './child-endpoint.js';
import { sharedClockMs } from './shared-clock.js';

const job = JSON.parse(process.argv[2] ?? '{}') as BurstWatchJob;
const endpoint = childEndpoint(job.url, job.kubeconfigPath);

function variantOf(): CacheVariant {
  switch (job.contender) {
    case 'bare':
      return bareWatchVariant;
    case 'ops':
      return opsInformerVariant({ plural: 'configmaps' });
    case 'client-node':
      return clientNodeInformer('configmaps');
    case 'fluent':
      return fluentWatch('configmaps');
  }
}

function send(message: BurstChildMessage): Promise<void> {
  return new Promise((resolve) => process.send?.(message, () => resolve()));
}

async function run(): Promise<void> {
  const seen = new Uint8Array(job.patches);
  let updates = 0;
  let distinct = 0;
  let lastUpdateAt = Number.NaN;
  let cpuAtGo: NodeJS.CpuUsage | undefined;
  let cpuAtLast: NodeJS.CpuUsage | undefined;
  const all = Promise.withResolvers<void>();
  const onUpdate = (object: UpdatedObject) => {
    const seq = Number(object.metadata?.annotations?.[burstSeqAnnotation]) - job.base;
    if (!(seq >= 0 && seq < job.patches)) return;
    updates++;
    lastUpdateAt = sharedClockMs();
    if (seen[seq] === 0) {
      seen[seq] = 1;
      distinct++;
      if (distinct === job.patches) {
        cpuAtLast = process.cpuUsage(cpuAtGo);
        all.resolve();
      }
    }
  };
  const cache = await variantOf().sync(endpoint, job.namespace, job.objects, 120_000, onUpdate);
  process.on('message', (message: BurstParentMessage) => {
    if (message.type === 'go') cpuAtGo = process.cpuUsage();
    else all.resolve();
  });
  await send({ type: 'synced' });
  await all.promise;
  const cpu = cpuAtLast ?? process.cpuUsage(cpuAtGo);
  await cache.stop();
  await send({
    type: 'done',
    updates,
    distinct,
    lastUpdateAt,
    cpuMs: (cpu.user + cpu.system) / 1000,
    syncMs: cache.ms,
  });
}

run().then(
  () => process.exit(0),
  (error: unknown) =>
    send({
      type: 'failed',
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    }).then(() => process.exit(1)),
);
