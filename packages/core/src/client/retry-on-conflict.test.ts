import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { defaultRetry, retryOnConflict, retryOnError } from './retry-on-conflict.js';

const failure = (code: number, reason: string) =>
  new ApiError(code, reason, reason, { kind: 'Status', code, reason, message: reason });

describe('retryOnConflict', () => {
  it('uses client-go DefaultRetry', () => {
    expect(defaultRetry).toEqual({ steps: 5, durationMs: 10, factor: 1, jitter: 0.1 });
  });

  it('retries conflicts until fn succeeds', async () => {
    let calls = 0;
    const result = await retryOnConflict(async () => {
      calls++;
      if (calls < 3) throw failure(409, 'Conflict');
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(3);
  });

  it('gives up after `steps` attempts with the last conflict', async () => {
    let calls = 0;
    const error = await retryOnConflict(
      () => {
        calls++;
        throw failure(409, 'Conflict');
      },
      { steps: 4, backoff: 1 },
    ).catch((e) => e);
    expect(calls).toBe(4);
    expect(ApiError.isInstance(error) && error.reason).toBe('Conflict');
  });

  it('stops at the first error that is not a conflict', async () => {
    let calls = 0;
    const notFound = failure(404, 'NotFound');
    await expect(
      retryOnConflict(() => {
        calls++;
        throw calls === 1 ? failure(409, 'Conflict') : notFound;
      }),
    ).rejects.toBe(notFound);
    expect(calls).toBe(2);
    await expect(
      retryOnConflict(() => Promise.reject(failure(409, 'AlreadyExists'))),
    ).rejects.toMatchObject({ reason: 'AlreadyExists' });
  });

  it('waits between attempts as the backoff says', async () => {
    const started = performance.now();
    let calls = 0;
    await retryOnConflict(
      () => {
        calls++;
        if (calls < 3) throw failure(409, 'Conflict');
      },
      { backoff: { durationMs: 20, factor: 2, jitter: 0 } },
    );
    // 20 ms then 40 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('rejects a bad step count and honours an abort signal', async () => {
    await expect(
      retryOnError(
        () => true,
        () => 1,
        { steps: 0 },
      ),
    ).rejects.toThrow(RangeError);
    const controller = new AbortController();
    const pending = retryOnError(
      () => true,
      () => {
        throw new Error('again');
      },
      { backoff: 10_000, signal: controller.signal },
    );
    controller.abort(new Error('stopped'));
    await expect(pending).rejects.toThrow('stopped');
  });
});
