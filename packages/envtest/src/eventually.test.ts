import { describe, expect, it, vi } from 'vitest';
import { consistently, defaultEventuallyTimeoutMs, eventually } from './eventually.js';

describe('eventually', () => {
  it('resolves with the first result that is not false and does not throw', async () => {
    let calls = 0;
    const result = await eventually(
      () => {
        calls++;
        if (calls < 3) throw new Error('not yet');
        return calls === 3 ? false : 'done';
      },
      { intervalMs: 1 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(4);
  });

  it('fails with the last error and the description after the timeout', async () => {
    await expect(
      eventually(
        () => {
          throw new Error('still pending');
        },
        { timeoutMs: 30, intervalMs: 5, description: 'pod ready' },
      ),
    ).rejects.toThrow(
      /^condition not met within 30 ms \(pod ready\), \d+ attempts; the last: still pending$/,
    );
  });

  it('gives up by default within the 5 s default test timeout of vitest, with the value last seen', async () => {
    vi.useFakeTimers();
    try {
      let phase = 'Pending';
      const failure = eventually(() => expect(phase).toBe('Running')).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      await vi.advanceTimersByTimeAsync(1_000);
      phase = 'ContainerCreating';
      await vi.advanceTimersByTimeAsync(defaultEventuallyTimeoutMs);
      const error = await failure;
      expect(defaultEventuallyTimeoutMs).toBeLessThan(5_000);
      expect(error?.message).toMatch(
        /^condition not met within 4000 ms, \d+ attempts; the last: expected 'ContainerCreating' to be 'Running'/,
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('consistently', () => {
  it('passes while the condition holds for the whole period', async () => {
    // Checked from the start until a check at or after the deadline; how many checks fit in
    // between depends on the machine's load, so only the first and the last are asserted.
    const checkedAt: number[] = [];
    const start = Date.now();
    await consistently(
      () => {
        checkedAt.push(Date.now());
        return true;
      },
      { timeoutMs: 30, intervalMs: 5 },
    );
    expect(checkedAt.length).toBeGreaterThanOrEqual(2);
    expect((checkedAt.at(-1) ?? 0) - start).toBeGreaterThanOrEqual(30);
  });

  it('fails at the first attempt that does not hold', async () => {
    let calls = 0;
    await expect(
      consistently(() => ++calls < 3, { timeoutMs: 1000, intervalMs: 1, description: 'no writes' }),
    ).rejects.toThrow('condition stopped holding (no writes): the condition returned false');
    expect(calls).toBe(3);
  });
});
