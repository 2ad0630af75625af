import { type ShardBy, shardByValues } from '../benchmark.js';

/**
 * Parses `--shard-by`: a comma-separated list of {@link shardByValues}, returned in the order
 * given, each once.
 *
 * @throws {Error} naming the entry that is not one, or when the list is empty.
 */
export function parseShardBy(text: string): ShardBy[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const expected = `--shard-by takes ${shardByValues.join(' and ')}, separated by commas`;
  if (entries.length === 0) throw new Error(`${expected}; got none`);
  for (const entry of entries)
    if (!shardByValues.includes(entry as ShardBy))
      throw new Error(`${expected}; "${entry}" is not one`);
  return [...new Set(entries as ShardBy[])];
}
