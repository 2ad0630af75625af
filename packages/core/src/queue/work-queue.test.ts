import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';
import { WorkQueue } from './work-queue.js';

/** Lets pending promise callbacks run (one macrotask turn). */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => {
    settled = true;
  });
  await flush();
  return settled;
}

function newQueue<T = string>(): WorkQueue<T> {
  return new WorkQueue<T>({ name: 'test', clock: new FakeClock() });
}

async function getItem<T>(queue: WorkQueue<T>): Promise<T> {
  const result = await queue.get();
  if (result.shutdown) throw new Error('queue unexpectedly shut down');
  return result.item;
}

describe('WorkQueue basics', () => {
  it('hands items out first in, first out', async () => {
    const queue = newQueue<number>();
    for (let i = 0; i < 1000; i++) queue.add(i);
    expect(queue.len()).toBe(1000);
    const got: number[] = [];
    for (let i = 0; i < 1000; i++) got.push(await getItem(queue));
    expect(got).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(queue.len()).toBe(0);
  });

  it('queues a pending key once', async () => {
    const queue = newQueue();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.len()).toBe(2);
    expect(await getItem(queue)).toBe('a');
    expect(await getItem(queue)).toBe('b');
    expect(queue.len()).toBe(0);
  });

  it('compares strings by value and objects by identity', async () => {
    const strings = newQueue();
    const key = ['default', 'web'].join('/');
    strings.add('default/web');
    strings.add(key);
    expect(strings.len()).toBe(1);

    const objects = newQueue<{ name: string }>();
    const a = { name: 'web' };
    const b = { name: 'web' };
    objects.add(a);
    objects.add(a);
    objects.add(b);
    expect(objects.len()).toBe(2);
    expect(await getItem(objects)).toBe(a);
    expect(await getItem(objects)).toBe(b);
  });

  it('does not hand out a key being processed; re-queues it once at done', async () => {
    const queue = newQueue();
    queue.add('a');
    queue.add('b');
    expect(await getItem(queue)).toBe('a');
    queue.add('a');
    queue.add('a');
    expect(queue.len()).toBe(1);
    expect(await getItem(queue)).toBe('b');
    const waiting = queue.get();
    expect(await isSettled(waiting)).toBe(false);
    queue.done('a');
    expect(await waiting).toEqual({ item: 'a', shutdown: false });
    queue.done('a');
    queue.done('b');
    expect(queue.len()).toBe(0);
    expect(await isSettled(queue.get())).toBe(false);
  });

  it('re-queues a key added while processing at the tail', async () => {
    const queue = newQueue();
    queue.add('a');
    expect(await getItem(queue)).toBe('a');
    queue.add('a');
    queue.add('b');
    queue.done('a');
    expect(await getItem(queue)).toBe('b');
    expect(await getItem(queue)).toBe('a');
  });

  it('does not re-queue a key that was not added while processing', async () => {
    const queue = newQueue();
    queue.add('a');
    await getItem(queue);
    queue.done('a');
    expect(queue.len()).toBe(0);
  });

  it('ignores done for a key not being processed', async () => {
    const queue = newQueue();
    queue.done('never');
    queue.add('a');
    queue.done('a');
    expect(queue.len()).toBe(1);
    expect(await getItem(queue)).toBe('a');
    queue.done('a');
    queue.done('a');
    queue.add('a');
    expect(queue.len()).toBe(1);
  });

  it('serves waiting getters in order, handing items over inside add', async () => {
    const queue = newQueue();
    const first = queue.get();
    const second = queue.get();
    const third = queue.get();
    queue.add('a');
    expect(queue.len()).toBe(0);
    queue.add('a');
    expect(queue.len()).toBe(0);
    queue.add('b');
    expect(await first).toEqual({ item: 'a', shutdown: false });
    expect(await second).toEqual({ item: 'b', shutdown: false });
    expect(await isSettled(third)).toBe(false);
    queue.done('a');
    expect(await third).toEqual({ item: 'a', shutdown: false });
  });

  it('never gives a key to two of several async workers, and processes every key after its last add', async () => {
    const queue = newQueue();
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const hop = async (n: number) => {
      for (let i = 0; i < n; i++) await Promise.resolve();
    };
    const active = new Set<string>();
    const lastAdded = new Map<string, number>();
    const lastStarted = new Map<string, number>();
    let tick = 0;
    let overlaps = 0;
    let processed = 0;
    const worker = async () => {
      for (;;) {
        const { item, shutdown } = await queue.get();
        if (shutdown) return;
        if (active.has(item)) overlaps++;
        active.add(item);
        lastStarted.set(item, ++tick);
        processed++;
        await hop(random(6));
        if (random(4) === 0) queue.add(item);
        await hop(random(6));
        active.delete(item);
        queue.done(item);
      }
    };
    const workers = Array.from({ length: 5 }, worker);
    for (let i = 0; i < 3000; i++) {
      const key = `ns/k${random(12)}`;
      queue.add(key);
      lastAdded.set(key, ++tick);
      await hop(random(3));
    }
    // As in client-go, workers keep getting what is queued after shutDown, then stop.
    queue.shutDown();
    await Promise.all(workers);
    expect(overlaps).toBe(0);
    expect(processed).toBeGreaterThan(12);
    for (const [key, added] of lastAdded) expect(lastStarted.get(key)).toBeGreaterThan(added);
    expect(queue.len()).toBe(0);
  });
});

describe('WorkQueue shutdown', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('releases waiting getters and ignores later adds', async () => {
    const queue = newQueue();
    const waiting = [queue.get(), queue.get()];
    expect(queue.shuttingDown()).toBe(false);
    queue.shutDown();
    expect(queue.shuttingDown()).toBe(true);
    expect(await Promise.all(waiting)).toEqual([
      { item: undefined, shutdown: true },
      { item: undefined, shutdown: true },
    ]);
    queue.add('a');
    queue.addAfter('b', 0);
    queue.addAfter('c', 10);
    queue.addRateLimited('d');
    expect(queue.len()).toBe(0);
    expect(queue.numRequeues('d')).toBe(0);
    expect(await queue.get()).toEqual({ item: undefined, shutdown: true });
    queue.shutDown();
    expect(queue.shuttingDown()).toBe(true);
  });

  it('still hands out items queued before shutdown, then reports shutdown', async () => {
    const queue = newQueue();
    queue.add('a');
    queue.add('b');
    expect(await getItem(queue)).toBe('a');
    queue.add('a');
    queue.shutDown();
    expect(await getItem(queue)).toBe('b');
    expect(await queue.get()).toEqual({ item: undefined, shutdown: true });
    // Added while processing before the shutdown: queued again at done.
    queue.done('a');
    expect(await getItem(queue)).toBe('a');
    queue.done('a');
    queue.done('b');
    expect(await queue.get()).toEqual({ item: undefined, shutdown: true });
  });

  it('drops delayed items and clears the timer', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue({ name: 'test', clock });
    queue.addAfter('a', 10);
    queue.addAfter('b', 20);
    expect(clock.pendingTimers()).toBe(1);
    queue.shutDown();
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(100);
    expect(queue.len()).toBe(0);
  });

  it('leaves no Node timer behind with the real clock', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const queue = new WorkQueue({ name: 'test' });
    queue.addAfter('a', 50);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(50);
    expect(queue.len()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    queue.addAfter('b', 1000);
    expect(vi.getTimerCount()).toBe(1);
    void queue.shutDownWithDrain();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('shutDownWithDrain waits for items in flight, and releases waiting getters', async () => {
    const queue = newQueue();
    queue.add('a');
    queue.add('b');
    await getItem(queue);
    await getItem(queue);
    const waiting = queue.get();
    const drained = queue.shutDownWithDrain();
    expect(await waiting).toEqual({ item: undefined, shutdown: true });
    expect(queue.shuttingDown()).toBe(true);
    expect(await isSettled(drained)).toBe(false);
    queue.done('a');
    expect(await isSettled(drained)).toBe(false);
    queue.add('c');
    expect(queue.len()).toBe(0);
    queue.done('b');
    expect(await isSettled(drained)).toBe(true);
  });

  it('shutDownWithDrain resolves at once with nothing in flight', async () => {
    const queue = newQueue();
    queue.add('queued');
    expect(await isSettled(queue.shutDownWithDrain())).toBe(true);
    expect(await isSettled(queue.shutDownWithDrain())).toBe(true);
  });

  it('shutDown releases a pending shutDownWithDrain', async () => {
    const queue = newQueue();
    queue.add('a');
    await getItem(queue);
    const first = queue.shutDownWithDrain();
    const second = queue.shutDownWithDrain();
    expect(await isSettled(first)).toBe(false);
    queue.shutDown();
    expect(await isSettled(first)).toBe(true);
    expect(await isSettled(second)).toBe(true);
    queue.done('a');
  });
});

describe('WorkQueue as a controller queue (the FIFO opt-out)', () => {
  it('ignores priorities: FIFO, and every item handed out at priority 0', async () => {
    const queue = newQueue();
    queue.addWithOptions('low', { priority: -100 });
    queue.addWithOptions('high', { priority: 100 });
    queue.addWithOptions('low', { priority: 500 });
    expect(queue.len()).toBe(2);
    expect(await queue.getWithPriority()).toEqual({ item: 'low', priority: 0, shutdown: false });
    expect(await queue.getWithPriority()).toEqual({ item: 'high', priority: 0, shutdown: false });
    queue.shutDown();
    expect(await queue.getWithPriority()).toEqual({
      item: undefined,
      priority: 0,
      shutdown: true,
    });
  });

  it('delays by the shorter of afterMs and the rate limiter, recording one failure', () => {
    const clock = new FakeClock();
    const queue = new WorkQueue<string>({
      name: 'test',
      clock,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(10, 1000),
    });
    queue.addWithOptions('a', { afterMs: 50 });
    queue.addWithOptions('b', { rateLimited: true, afterMs: 500 });
    queue.addWithOptions('c', { rateLimited: true, afterMs: 5 });
    clock.advance(5);
    expect(queue.len()).toBe(1);
    clock.advance(5);
    expect(queue.len()).toBe(2);
    clock.advance(40);
    expect(queue.len()).toBe(3);
    expect(queue.numRequeues('b')).toBe(1);
    expect(queue.numRequeues('a')).toBe(0);
  });
});
