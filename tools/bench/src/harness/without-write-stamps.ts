/** The metadata {@link withoutWriteStamps} reads. */
interface StampedMetadata {
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  managedFields?: Array<{ time?: string }>;
}

/**
 * An object as JSON text with what a server stamps on each write blanked: `uid`,
 * `resourceVersion`, `creationTimestamp` and the `managedFields` times from one second before
 * the creation on (times set in the request, earlier, stay). The second's slack is there
 * because a server stamps a create's managedFields a moment before its `creationTimestamp`
 * (kube-apiserver runs the field manager before the registry fills in the timestamp, and
 * the local server does likewise), so a second boundary can fall between the two. Two writes
 * of the same body give the same text, key order included: what the bulk seeding's checks
 * compare.
 */
export function withoutWriteStamps(object: object): string {
  const metadata = (object as { metadata?: StampedMetadata }).metadata ?? {};
  const created = metadata.creationTimestamp ?? '';
  const createdMs = Date.parse(created);
  const since = Number.isNaN(createdMs)
    ? created
    : `${new Date(createdMs - 1_000).toISOString().slice(0, 19)}Z`;
  const blank = <T>(value: T | undefined, by: string) => (value === undefined ? undefined : by);
  return JSON.stringify({
    ...object,
    metadata: {
      ...metadata,
      uid: blank(metadata.uid, 'uid'),
      resourceVersion: blank(metadata.resourceVersion, 'resourceVersion'),
      creationTimestamp: blank(metadata.creationTimestamp, 'now'),
      managedFields: metadata.managedFields?.map((entry) =>
        entry.time !== undefined && entry.time >= since ? { ...entry, time: 'now' } : entry,
      ),
    },
  });
}
