import { describe, expect, it } from 'vitest';
import { parseShardBy } from './parse-shard-by.js';

describe('parseShardBy', () => {
  it('reads the list in the order given, each once', () => {
    expect(parseShardBy('namespace, name,namespace')).toEqual(['namespace', 'name']);
    expect(parseShardBy('name')).toEqual(['name']);
  });

  it('names the entry that is not one, and refuses an empty list', () => {
    expect(() => parseShardBy('name,uid')).toThrow(
      '--shard-by takes name and namespace, separated by commas; "uid" is not one',
    );
    expect(() => parseShardBy(' , ')).toThrow('got none');
  });
});
