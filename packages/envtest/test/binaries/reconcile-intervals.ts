/** One reconcile of an object by a replica: when it started and (once it ended) ended. */
export interface ReconcileInterval {
  key: string;
  who: string;
  start: number;
  /** Undefined while the reconcile is in flight. */
  end?: number;
}

/**
 * The oracle of the sharding tests: every pair of different replicas' reconciles of one
 * object that overlapped in time (one in flight counts as running until now), as
 * `key: who and who`. Empty when no object was ever reconciled by two replicas at once.
 */
export function overlappingReconciles(intervals: readonly ReconcileInterval[]): string[] {
  const found: string[] = [];
  const byKey = new Map<string, ReconcileInterval[]>();
  for (const interval of intervals) {
    const list = byKey.get(interval.key) ?? [];
    list.push(interval);
    byKey.set(interval.key, list);
  }
  const now = Date.now();
  for (const [key, list] of byKey)
    for (const a of list)
      for (const b of list)
        if (a.who < b.who && a.start < (b.end ?? now) && b.start < (a.end ?? now))
          found.push(`${key}: ${a.who} and ${b.who}`);
  return found;
}
