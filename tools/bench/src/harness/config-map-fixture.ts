/**
 * The ConfigMaps the benchmarks seed: `<prefix>-<index>`, two small data entries, and
 * `labels` when given. The same on every server.
 */
export function configMapManifest(
  prefix: string,
  index: number,
  labels?: Record<string, string>,
): Record<string, unknown> {
  return {
    metadata: { name: `${prefix}-${index}`, ...(labels ? { labels } : {}) },
    data: { index: String(index), color: index % 2 === 0 ? 'blue' : 'green' },
  };
}
