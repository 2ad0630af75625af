/**
 * Most Pods a ReplicaSet sync creates or deletes (kube-controller-manager's `BurstReplicas`,
 * pkg/controller/replicaset/replica_set.go); the next sync does the rest.
 */
export const burstReplicas = 500;

/** The first batch of {@link slowStartBatch} (kube's `SlowStartInitialBatchSize`). */
export const slowStartInitialBatchSize = 1;

/** What {@link slowStartBatch} did. */
export interface SlowStartResult {
  /** How many calls succeeded. */
  successes: number;
  /** The first error of the batch that failed, if one did. */
  error?: unknown;
}

/**
 * kube's `slowStartBatch`: calls `fn` `count` times in batches that double in size (1, 2, 4,
 * ...), the calls of a batch concurrently. A batch with any failure ends it, so a create that
 * always fails (a denying webhook, a full quota) costs one call per sync, not `count`. Before
 * each batch `proceed()` is asked whether to go on (the owner still exists), so a deleted
 * owner stops the creation at the next batch boundary.
 */
export async function slowStartBatch(
  count: number,
  fn: () => Promise<unknown>,
  proceed: () => boolean = () => true,
  initialBatchSize = slowStartInitialBatchSize,
): Promise<SlowStartResult> {
  let successes = 0;
  let remaining = count;
  for (
    let size = Math.min(remaining, initialBatchSize);
    size > 0;
    size = Math.min(2 * size, remaining)
  ) {
    if (!proceed()) break;
    const outcomes = await Promise.allSettled(Array.from({ length: size }, () => fn()));
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') successes++;
    }
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed !== undefined) return { successes, error: failed.reason };
    remaining -= size;
  }
  return { successes };
}
