import { describe, expect, it } from 'vitest';
import type { Clock } from '../clock/clock.js';
import { FakeClock } from '../clock/fake-clock.js';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';
import { WorkQueue } from './work-queue.js';

function setup(clock = new FakeClock()) {
  return { clock, queue: new WorkQueue<string>({ name: 'test', clock }) };
}

async function drain(queue: WorkQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (queue.len() > 0) {
    const result = await queue.get();
    if (result.shutdown) break;
    out.push(result.item);
    queue.done(result.item);
  }
  return out;
}

describe('WorkQueue.addAfter', () => {
  it('adds items when they fall due, in order of due time', async () => {
    const { clock, queue } = setup();
    queue.addAfter('c', 30);
    queue.addAfter('a', 10);
    queue.addAfter('b', 20);
    queue.addAfter('d', 20);
    clock.advance(9);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['a']);
    clock.advance(10);
    expect(await drain(queue)).toEqual(['b', 'd']);
    clock.advance(100);
    expect(await drain(queue)).toEqual(['c']);
  });

  it('releases items due at once in due order when time jumps', async () => {
    const { clock, queue } = setup();
    queue.addAfter('late', 50);
    queue.addAfter('early', 5);
    queue.addAfter('middle', 25);
    clock.advance(1000);
    expect(await drain(queue)).toEqual(['early', 'middle', 'late']);
  });

  it('adds at once for a delay of 0, a negative delay or NaN', () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 0);
    queue.addAfter('b', -5);
    queue.addAfter('c', Number.NaN);
    expect(queue.len()).toBe(3);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('moves a waiting item earlier, and only once in the queue', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 100);
    queue.addAfter('a', 10);
    clock.advance(10);
    expect(await drain(queue)).toEqual(['a']);
    clock.advance(200);
    expect(queue.len()).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('does not move a waiting item later', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 10);
    clock.advance(5);
    queue.addAfter('a', 100);
    clock.advance(5);
    expect(await drain(queue)).toEqual(['a']);
    clock.advance(200);
    expect(queue.len()).toBe(0);
  });

  it('re-arms for an item due before the one the timer waits for', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 100);
    queue.addAfter('b', 10);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(10);
    expect(await drain(queue)).toEqual(['b']);
    clock.advance(90);
    expect(await drain(queue)).toEqual(['a']);
  });

  it('uses one timer however many items wait', () => {
    const { clock, queue } = setup();
    for (let i = 0; i < 1000; i++) queue.addAfter(`k${i}`, 1 + ((i * 7919) % 500));
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(250);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(250);
    expect(clock.pendingTimers()).toBe(0);
    expect(queue.len()).toBe(1000);
  });

  it('does not duplicate an item already pending when it falls due', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 10);
    queue.add('a');
    clock.advance(10);
    expect(queue.len()).toBe(1);
    expect(await drain(queue)).toEqual(['a']);
  });

  it('re-queues an item that falls due while processing, at its done', async () => {
    const { clock, queue } = setup();
    queue.add('a');
    expect(await queue.get()).toEqual({ item: 'a', shutdown: false });
    queue.addAfter('a', 10);
    clock.advance(10);
    expect(queue.len()).toBe(0);
    queue.done('a');
    expect(await drain(queue)).toEqual(['a']);
  });

  it('hands a due item to a waiting getter', async () => {
    const { clock, queue } = setup();
    const waiting = queue.get();
    queue.addAfter('a', 10);
    clock.advance(10);
    expect(await waiting).toEqual({ item: 'a', shutdown: false });
  });

  it('waits beyond the longest Node timer delay', async () => {
    const { clock, queue } = setup();
    const far = 3_000_000_000;
    queue.addAfter('far', far);
    clock.advance(2_147_483_647);
    expect(queue.len()).toBe(0);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(far - 2_147_483_647 - 1);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['far']);
  });

  it('tolerates a timer that fires early', async () => {
    const fake = new FakeClock();
    const early: Clock = {
      now: () => fake.now(),
      setTimeout: (callback, ms) => fake.setTimeout(callback, ms - 0.5),
      clearTimeout: (handle) => fake.clearTimeout(handle),
    };
    const queue = new WorkQueue<string>({ name: 'test', clock: early });
    queue.addAfter('a', 10);
    fake.advance(9.5);
    expect(queue.len()).toBe(0);
    expect(fake.pendingTimers()).toBe(1);
    fake.advance(0.5);
    expect(await drain(queue)).toEqual(['a']);
  });
});

describe('WorkQueue rate limiting', () => {
  it('delays by the default limiter: 5 ms, then 10 ms, and counts requeues', async () => {
    const { clock, queue } = setup();
    queue.addRateLimited('a');
    expect(queue.numRequeues('a')).toBe(1);
    clock.advance(4);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['a']);
    queue.addRateLimited('a');
    expect(queue.numRequeues('a')).toBe(2);
    clock.advance(9);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['a']);
  });

  it('forget resets the backoff', async () => {
    const { clock, queue } = setup();
    for (let i = 0; i < 5; i++) queue.addRateLimited('a');
    expect(queue.numRequeues('a')).toBe(5);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
    clock.advance(5);
    expect(await drain(queue)).toEqual(['a']);
    queue.addRateLimited('a');
    clock.advance(5);
    expect(await drain(queue)).toEqual(['a']);
  });

  it('does not count adds of the key or failures of other keys', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue<string>({
      name: 'test',
      clock,
      rateLimiter: new ItemExponentialFailureRateLimiter(5, 1000),
    });
    queue.addRateLimited('a');
    queue.addRateLimited('a');
    for (let i = 0; i < 10; i++) {
      queue.add('a');
      queue.addAfter('a', 1);
      queue.addRateLimited('other');
    }
    expect(queue.numRequeues('a')).toBe(2);
    expect(queue.numRequeues('other')).toBe(10);
    clock.advance(2000);
    await drain(queue);
    queue.addRateLimited('a');
    expect(queue.numRequeues('a')).toBe(3);
    clock.advance(19);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['a']);
  });

  it('uses the injected limiter', () => {
    const clock = new FakeClock();
    const asked: string[] = [];
    const queue = new WorkQueue<string>({
      name: 'test',
      clock,
      rateLimiter: {
        when: (item) => {
          asked.push(item);
          return 0;
        },
        forget: () => {},
        numRequeues: () => 7,
      },
    });
    queue.addRateLimited('x');
    expect(asked).toEqual(['x']);
    expect(queue.len()).toBe(1);
    expect(queue.numRequeues('x')).toBe(7);
  });
});
