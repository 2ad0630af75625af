/** The metadata {@link withoutWriteStamps} reads. */
interface StampedMetadata {
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  managedFields?: Array<{ time?: string }>;
}

/**
 * An object as JSON text with what a server stamps on each write blanked: `uid`,
 * `resourceVersion`, `creationTimestamp` and the `managedFields` times from the creation on
 * (times set in the request, earlier, stay). Two writes of the same body give the same text,
 * key order included: what the bulk seeding's checks compare.
 */
export function withoutWriteStamps(object: object): string {
  const metadata = (object as { metadata?: StampedMetadata }).metadata ?? {};
  const created = metadata.creationTimestamp ?? '';
  const blank = <T>(value: T | undefined, by: string) => (value === undefined ? undefined : by);
  return JSON.stringify({
    ...object,
    metadata: {
      ...metadata,
      uid: blank(metadata.uid, 'uid'),
      resourceVersion: blank(metadata.resourceVersion, 'resourceVersion'),
      creationTimestamp: blank(metadata.creationTimestamp, 'now'),
      managedFields: metadata.managedFields?.map((entry) =>
        entry.time !== undefined && entry.time >= created ? { ...entry, time: 'now' } : entry,
      ),
    },
  });
}
