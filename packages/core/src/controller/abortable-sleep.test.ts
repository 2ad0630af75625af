import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortableSleep } from './abortable-sleep.js';

describe('abortableSleep', () => {
  it('waits the time, then leaves no listener on the signal', async () => {
    const signal = new AbortController().signal;
    const started = Date.now();
    for (let round = 0; round < 20; round++) await abortableSleep(1, signal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(20);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('ends early when the signal aborts, and at once when it already has', async () => {
    const stop = new AbortController();
    const sleeping = abortableSleep(60_000, stop.signal);
    stop.abort();
    await sleeping;
    await abortableSleep(60_000, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
