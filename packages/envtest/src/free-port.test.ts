import { describe, expect, it } from 'vitest';
import { retryWhilePortTaken } from './free-port.js';

const lost = new Error('listen tcp 127.0.0.1:1: bind: address already in use');
const isLost = (error: unknown) => error === lost;

describe('retryWhilePortTaken', () => {
  it('starts again after a lost port, and resolves with the start that succeeds', async () => {
    let calls = 0;
    const started = await retryWhilePortTaken(async () => {
      calls++;
      if (calls < 3) throw lost;
      return 'up';
    }, isLost);
    expect(started).toBe('up');
    expect(calls).toBe(3);
  });

  it('throws the third lost port, and any other error at once', async () => {
    /** Retries a start that always fails with `error`; resolves with how often it ran. */
    const startsUntilThrown = async (error: Error) => {
      let calls = 0;
      await expect(
        retryWhilePortTaken(async () => {
          calls++;
          throw error;
        }, isLost),
      ).rejects.toBe(error);
      return calls;
    };
    expect(await startsUntilThrown(lost)).toBe(3);
    expect(await startsUntilThrown(new Error('etcd exited with code 1'))).toBe(1);
  });
});
