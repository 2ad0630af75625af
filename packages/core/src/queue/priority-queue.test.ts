import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { LowPriority } from './controller-queue.js';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';
import { PriorityQueue } from './priority-queue.js';
import type {
  CounterMetric,
  GaugeMetric,
  HistogramMetric,
  WorkqueueMetricsProvider,
} from './workqueue-metrics.js';

function setup(clock = new FakeClock()) {
  return {
    clock,
    queue: new PriorityQueue<string>({
      name: 'test',
      clock,
      rateLimiter: new ItemExponentialFailureRateLimiter<string>(10, 1000),
    }),
  };
}

/** Gets and dones every ready item, returning `item@priority` in the order handed out. */
async function drain(queue: PriorityQueue<string>): Promise<string[]> {
  const out: string[] = [];
  while (queue.len() > 0) {
    const result = await queue.getWithPriority();
    if (result.shutdown) break;
    out.push(`${result.item}@${result.priority}`);
    queue.done(result.item);
  }
  return out;
}

describe('PriorityQueue order', () => {
  it('hands out the highest priority first, first in first out within a priority', async () => {
    const { queue } = setup();
    queue.addWithOptions('list-1', { priority: LowPriority });
    queue.addWithOptions('list-2', { priority: LowPriority });
    queue.add('new-1');
    queue.addWithOptions('urgent', { priority: 10 });
    queue.addWithOptions('list-3', { priority: LowPriority });
    queue.add('new-2');
    expect(await drain(queue)).toEqual([
      'urgent@10',
      'new-1@0',
      'new-2@0',
      'list-1@-100',
      'list-2@-100',
      'list-3@-100',
    ]);
  });

  it('serves a new item ahead of a backlog of 10,000 low-priority items', async () => {
    const { queue } = setup();
    for (let i = 0; i < 10_000; i++) queue.addWithOptions(`old-${i}`, { priority: LowPriority });
    const first = await queue.get();
    queue.add('new');
    const second = await queue.get();
    expect(first).toEqual({ item: 'old-0', priority: LowPriority, shutdown: false });
    expect(second).toEqual({ item: 'new', priority: 0, shutdown: false });
    expect(queue.len()).toBe(9_999);
  });

  it('serves waiting gets in the order they were made, as items arrive', async () => {
    const { queue } = setup();
    const first = queue.get();
    const second = queue.get();
    queue.add('a');
    queue.add('b');
    expect((await first).item).toBe('a');
    expect((await second).item).toBe('b');
  });

  it('refuses a priority that is not a whole number, naming it', () => {
    const { queue } = setup();
    expect(() => queue.addWithOptions('a', { priority: 1.5 })).toThrow(
      /a priority must be a whole number .* got 1\.5/,
    );
    expect(() => queue.addWithOptions('a', { priority: Number.NaN })).toThrow(RangeError);
    expect(queue.len()).toBe(0);
  });
});

describe('PriorityQueue deduplication', () => {
  it('keeps an item once, raising its priority and never lowering it', async () => {
    const { queue } = setup();
    queue.addWithOptions('a', { priority: LowPriority });
    queue.addWithOptions('b', { priority: LowPriority });
    queue.add('c');
    queue.add('a'); // raised to 0: last among priority 0
    queue.addWithOptions('c', { priority: LowPriority }); // not lowered
    queue.addWithOptions('b', { priority: -200 }); // not lowered
    expect(queue.len()).toBe(3);
    expect(await drain(queue)).toEqual(['c@0', 'a@0', 'b@-100']);
  });

  it('makes a waiting item ready when it is added without a delay, once', async () => {
    const { clock, queue } = setup();
    queue.addAfter('a', 1000);
    queue.addWithOptions('a', { priority: 3 });
    expect(await drain(queue)).toEqual(['a@3']);
    clock.advance(2000);
    expect(queue.len()).toBe(0);
    expect(clock.pendingTimers()).toBeLessThanOrEqual(1);
  });

  it('keeps the earlier ready time of a waiting item, and the higher priority', async () => {
    const { clock, queue } = setup();
    queue.addWithOptions('a', { afterMs: 100, priority: LowPriority });
    queue.addWithOptions('a', { afterMs: 500, priority: 7 });
    queue.addWithOptions('a', { afterMs: 50 });
    clock.advance(49);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['a@7']);
    clock.advance(1000);
    expect(queue.len()).toBe(0);
  });

  it('leaves a ready item ready when it is added again with a delay', async () => {
    const { queue } = setup();
    queue.add('a');
    queue.addAfter('a', 1000);
    queue.addRateLimited('a');
    expect(await drain(queue)).toEqual(['a@0']);
  });
});

describe('PriorityQueue processing', () => {
  it('never hands out an item being processed; an add meanwhile waits for its done', async () => {
    const { queue } = setup();
    queue.add('a');
    const first = await queue.get();
    queue.add('a');
    queue.add('b');
    expect(queue.len()).toBe(2);
    const second = await queue.get();
    expect(second.item).toBe('b');
    let third: string | undefined;
    void queue.get().then((result) => {
      third = result.item;
    });
    await Promise.resolve();
    expect(third).toBeUndefined();
    queue.done(first.item as string);
    await Promise.resolve();
    expect(third).toBe('a');
  });

  it('keeps the place of an item added while processing: ahead of later adds of its priority', async () => {
    const { queue } = setup();
    queue.add('a');
    const taken = await queue.get();
    queue.add('a');
    queue.add('b');
    queue.addWithOptions('c', { priority: 1 });
    queue.done(taken.item as string);
    expect(await drain(queue)).toEqual(['c@1', 'a@0', 'b@0']);
  });

  it('raises the priority of an item added while processing', async () => {
    const { queue } = setup();
    queue.add('a');
    queue.add('b');
    const taken = await queue.get();
    queue.addWithOptions('a', { priority: LowPriority });
    queue.addWithOptions('a', { priority: 4 });
    queue.done(taken.item as string);
    expect(await drain(queue)).toEqual(['a@4', 'b@0']);
  });
});

describe('PriorityQueue delays and rate limiting', () => {
  it('holds delayed items until due, then orders them by priority', async () => {
    const { clock, queue } = setup();
    queue.addWithOptions('low', { afterMs: 10, priority: LowPriority });
    queue.addWithOptions('high', { afterMs: 20, priority: 5 });
    queue.addWithOptions('mid', { afterMs: 30 });
    clock.advance(9);
    expect(queue.len()).toBe(0);
    clock.advance(100);
    expect(await drain(queue)).toEqual(['high@5', 'mid@0', 'low@-100']);
  });

  it('orders items of one priority by when they became ready, not when they were added', async () => {
    const { clock, queue } = setup();
    queue.addAfter('delayed', 10);
    queue.add('now');
    clock.advance(10);
    queue.add('later');
    expect(await drain(queue)).toEqual(['now@0', 'delayed@0', 'later@0']);
  });

  it('delays rate-limited adds by the limiter, backing off per item until forgotten', async () => {
    const { clock, queue } = setup();
    queue.addWithOptions('a', { rateLimited: true, priority: 2 });
    expect(queue.len()).toBe(0);
    clock.advance(10);
    expect(await drain(queue)).toEqual(['a@2']);
    queue.addRateLimited('a');
    clock.advance(19);
    expect(queue.len()).toBe(0);
    clock.advance(1);
    expect(await drain(queue)).toEqual(['a@0']);
    expect(queue.numRequeues('a')).toBe(2);
    queue.forget('a');
    expect(queue.numRequeues('a')).toBe(0);
  });

  it('takes the shorter of afterMs and the rate limiter', async () => {
    const { clock, queue } = setup();
    queue.addWithOptions('a', { rateLimited: true, afterMs: 500 });
    clock.advance(10);
    expect(await drain(queue)).toEqual(['a@0']);
    queue.addWithOptions('b', { rateLimited: true, afterMs: 5 });
    clock.advance(5);
    expect(await drain(queue)).toEqual(['b@0']);
  });

  it('arms one timer for the earliest due item', () => {
    const { clock, queue } = setup();
    for (let i = 0; i < 100; i++) queue.addAfter(`item-${i}`, 1000 - i);
    expect(clock.pendingTimers()).toBe(1);
    clock.advance(1000);
    expect(queue.len()).toBe(100);
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('PriorityQueue shutdown', () => {
  it('resolves waiting gets, ignores later adds, drops waiting items and clears the timer', async () => {
    const { clock, queue } = setup();
    const waiting = queue.get();
    queue.addAfter('later', 100);
    queue.shutDown();
    expect(await waiting).toEqual({ item: undefined, priority: 0, shutdown: true });
    queue.add('x');
    queue.addRateLimited('y');
    expect(queue.len()).toBe(0);
    expect(queue.numRequeues('y')).toBe(0);
    expect(clock.pendingTimers()).toBe(0);
    clock.advance(1000);
    expect(queue.len()).toBe(0);
    expect(queue.shuttingDown()).toBe(true);
  });

  it('still hands out ready items after shutdown, then reports shutdown', async () => {
    const { queue } = setup();
    queue.addWithOptions('low', { priority: LowPriority });
    queue.add('high');
    queue.shutDown();
    expect(await drain(queue)).toEqual(['high@0', 'low@-100']);
    expect((await queue.get()).shutdown).toBe(true);
  });

  it('drains: resolves once every item handed out is done', async () => {
    const { queue } = setup();
    queue.add('a');
    const taken = await queue.get();
    let drained = false;
    const drain = queue.shutDownWithDrain().then(() => {
      drained = true;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    queue.done(taken.item as string);
    await drain;
    expect(drained).toBe(true);
  });
});

describe('PriorityQueue metrics', () => {
  function recordingProvider() {
    const record: string[] = [];
    const gauge = (name: string): GaugeMetric => ({
      inc: () => record.push(`${name}+`),
      dec: () => record.push(`${name}-`),
    });
    const counter = (name: string): CounterMetric => ({ inc: () => record.push(name) });
    const histogram = (name: string): HistogramMetric => ({
      observe: (value) => record.push(`${name}=${value}`),
    });
    const provider: WorkqueueMetricsProvider = {
      newDepthMetric: () => gauge('depth'),
      newAddsMetric: () => counter('adds'),
      newLatencyMetric: () => histogram('latency'),
      newWorkDurationMetric: () => histogram('work'),
      newUnfinishedWorkSecondsMetric: () => () => undefined,
      newLongestRunningProcessorSecondsMetric: () => () => undefined,
      newRetriesMetric: () => counter('retries'),
      newDepthMetricWithPriority: () => ({
        inc: (priority) => record.push(`depth[${priority}]+`),
        dec: (priority) => record.push(`depth[${priority}]-`),
      }),
    };
    return { record, provider };
  }

  it('counts depth per priority for ready items, adds when ready, retries for delays above 0, and times waits', async () => {
    const { record, provider } = recordingProvider();
    const clock = new FakeClock();
    const queue = new PriorityQueue<string>({ name: 'm', clock, metrics: provider });
    queue.addWithOptions('a', { priority: LowPriority });
    queue.addAfter('b', 100);
    queue.addAfter('c', 0);
    queue.addWithOptions('a', { priority: 1 });
    expect(record).toEqual([
      'adds',
      'depth[-100]+',
      'retries',
      'adds',
      'depth[0]+',
      'depth[-100]-',
      'depth[1]+',
    ]);
    record.length = 0;
    clock.advance(100);
    expect(record).toEqual(['adds', 'depth[0]+']);
    record.length = 0;
    const first = await queue.get();
    expect(first.item).toBe('a');
    clock.advance(50);
    queue.done('a');
    expect(record).toEqual(['depth[1]-', 'latency=0.1', 'work=0.05']);
  });

  it('falls back to the plain depth gauge when the provider has no per-priority one', async () => {
    const { record, provider } = recordingProvider();
    const { newDepthMetricWithPriority: _, ...plain } = provider;
    const queue = new PriorityQueue<string>({ name: 'm', clock: new FakeClock(), metrics: plain });
    queue.addWithOptions('a', { priority: 9 });
    await queue.get();
    expect(record).toEqual(['adds', 'depth+', 'depth-', 'latency=0']);
  });
});
