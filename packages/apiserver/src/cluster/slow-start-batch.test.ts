import { describe, expect, it } from 'vitest';
import { slowStartBatch } from './slow-start-batch.js';

/** Runs slowStartBatch with `fn` recording the batch (by concurrent start) each call was in. */
async function batchesOf(count: number, fail?: (call: number) => boolean, proceed?: () => boolean) {
  const batches: number[] = [];
  let calls = 0;
  let inFlight = 0;
  let current = 0;
  const result = await slowStartBatch(
    count,
    async () => {
      const call = ++calls;
      if (inFlight === 0) batches.push(0);
      inFlight++;
      current = batches.length - 1;
      batches[current] = (batches[current] ?? 0) + 1;
      await Promise.resolve();
      inFlight--;
      if (fail?.(call)) throw new Error(`call ${call} failed`);
    },
    proceed,
  );
  return { batches, result };
}

describe('slowStartBatch', () => {
  it('runs batches of 1, 2, 4, 8 ... up to the count', async () => {
    const { batches, result } = await batchesOf(20);
    expect(batches).toEqual([1, 2, 4, 8, 5]);
    expect(result).toEqual({ successes: 20 });
  });

  it('stops after the first batch with a failure, counting its successes', async () => {
    const { batches, result } = await batchesOf(100, (call) => call === 5);
    expect(batches).toEqual([1, 2, 4]);
    expect(result.successes).toBe(6);
    expect((result.error as Error).message).toBe('call 5 failed');
  });

  it('asks before each batch whether to go on', async () => {
    let asked = 0;
    const { batches, result } = await batchesOf(100, undefined, () => ++asked <= 3);
    expect(batches).toEqual([1, 2, 4]);
    expect(result).toEqual({ successes: 7 });
  });

  it('does nothing for a count of 0', async () => {
    expect((await batchesOf(0)).result).toEqual({ successes: 0 });
  });
});
