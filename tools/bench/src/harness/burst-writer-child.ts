/**
 * The writer of the event-burst benchmark, in a process of its own so that its work is not
 * charged to any library measured: the parent forks this entry with a {@link BurstWriteJob}
 * as its argument. It merge-patches the ConfigMaps as fast as the server answers, with
 * `concurrency` patches in flight, patch `seq` setting annotation {@link burstSeqAnnotation}
 * of ConfigMap `seq % objects` to `base + seq`, and answers one {@link BurstWriteOutcome}.
 */
import pLimit from 'p-limit';
import {
  type BurstWriteJob,
  type BurstWriteOutcome,
  burstSeqAnnotation,
} from './burst-protocol.js';
import { childEndpoint } from './child-endpoint.js';
import { RawHttp } from './raw-http.js';
import { replyToParent } from './reply-to-parent.js';
import { sharedClockMs } from './shared-clock.js';

const job = JSON.parse(process.argv[2] ?? '{}') as BurstWriteJob;

async function write(): Promise<BurstWriteOutcome> {
  const http = new RawHttp(childEndpoint(job.url, job.kubeconfigPath));
  const limit = pLimit(job.concurrency);
  const path = `/api/v1/namespaces/${job.namespace}/configmaps/${job.prefix}-`;
  let lastRespondedAt = 0;
  const firstSentAt = sharedClockMs();
  try {
    await Promise.all(
      Array.from({ length: job.patches }, (_, seq) =>
        limit(async () => {
          await http.send(
            'PATCH',
            `${path}${seq % job.objects}`,
            { metadata: { annotations: { [burstSeqAnnotation]: String(job.base + seq) } } },
            'application/merge-patch+json',
          );
          lastRespondedAt = Math.max(lastRespondedAt, sharedClockMs());
        }),
      ),
    );
  } finally {
    http.close();
  }
  return { ok: true, firstSentAt, lastRespondedAt };
}

replyToParent(write());
