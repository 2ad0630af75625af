import type { BenchContext, BenchmarkModule, BenchmarkResult } from '../benchmark.js';
import { opsInformerVariant } from '../harness/cache-variants.js';
import { formatNumber, formatRatio } from '../harness/format.js';
import { retainedHeapSamples } from '../harness/retained-heap.js';
import { median, ratio } from '../harness/stats.js';

const namespace = 'metadata-heap';

/** Issue #31's goal: a metadata-only informer holds at most this share of a full one's heap. */
export const metadataHeapGoal = 0.5;

/**
 * Issue #31's metadata-only informers: retained heap per cached Pod of `@ops/core`'s
 * metadata-only Informer (`metadataOnly`, PartialObjectMetadata) against its Informer of
 * whole Pods, over the same Pods, alternating, medians compared (as the `heap` benchmark
 * measures).
 */
export const metadataHeapBenchmark: BenchmarkModule = {
  id: 'metadata-heap',
  title: 'Metadata-only informer heap',
  description:
    'Heap retained per cached Pod after sync and a full GC: @ops/core metadata-only Informer (PartialObjectMetadata) vs its Informer of whole Pods.',
  async run({ options, startServer, serverName, log }: BenchContext): Promise<BenchmarkResult> {
    const objects = options.objects;
    const server = await startServer();
    log(`seeding ${objects} Pods`);
    await server.seedPods(namespace, objects);
    const full = opsInformerVariant();
    const metadata = opsInformerVariant({
      metadataOnly: true,
      label: '@ops/core metadata-only Informer',
    });
    const samples = await retainedHeapSamples(
      [full, metadata],
      server,
      namespace,
      objects,
      options.repeats,
      log,
    );
    await server.stop();

    const fullBytes = median(samples[full.id] ?? []);
    const metadataBytes = median(samples[metadata.id] ?? []);
    const share = ratio(metadataBytes, fullBytes);
    return {
      id: this.id,
      title: this.title,
      metrics: [
        { name: '@ops/core Informer (whole Pods)', value: fullBytes, unit: 'B/object' },
        { name: '@ops/core metadata-only Informer', value: metadataBytes, unit: 'B/object' },
        { name: 'metadata-only / whole', value: share, unit: '×' },
      ],
      targets: [
        {
          target: `metadata-only ≤ ${metadataHeapGoal}× whole Pods per object`,
          measured: formatRatio(share),
          met: share <= metadataHeapGoal,
        },
      ],
      charts: [
        {
          title:
            'Retained heap per cached Pod, whole vs metadata only (median bytes; lower is better)',
          unit: 'B',
          bars: [
            { label: '@ops/core Informer (whole Pods)', value: fullBytes },
            { label: '@ops/core metadata-only Informer', value: metadataBytes },
          ],
        },
      ],
      notes: [
        `${objects} Pods from ${serverName}; heapUsed after two forced full GCs, with the cache synced and referenced, minus the same before it was created; ${formatNumber(metadataBytes / 1024)} KB vs ${formatNumber(fullBytes / 1024)} KB per object. Both strip managedFields (the default transform); the metadata-only informer lists with Accept as=PartialObjectMetadataList and watches with as=PartialObjectMetadata.`,
      ],
      samples: { bytesPerObject: samples },
    };
  },
};
