import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { WorkQueue } from './work-queue.js';
import {
  noopWorkqueueMetricsProvider,
  type WorkqueueMetricsProvider,
} from './workqueue-metrics.js';

/** Records what a queue reports, per metric. */
class RecordingProvider implements WorkqueueMetricsProvider {
  readonly names: string[] = [];
  depth = 0;
  adds = 0;
  retries = 0;
  readonly latency: number[] = [];
  readonly workDuration: number[] = [];
  unfinishedWork: () => number = () => Number.NaN;
  longestRunning: () => number = () => Number.NaN;
  unregistered: string[] = [];

  newDepthMetric(name: string) {
    this.names.push(`depth:${name}`);
    return { inc: () => this.depth++, dec: () => this.depth-- };
  }
  newAddsMetric(name: string) {
    this.names.push(`adds:${name}`);
    return { inc: () => this.adds++ };
  }
  newLatencyMetric(name: string) {
    this.names.push(`latency:${name}`);
    return { observe: (value: number) => this.latency.push(value) };
  }
  newWorkDurationMetric(name: string) {
    this.names.push(`workDuration:${name}`);
    return { observe: (value: number) => this.workDuration.push(value) };
  }
  newUnfinishedWorkSecondsMetric(name: string, read: () => number) {
    this.names.push(`unfinished:${name}`);
    this.unfinishedWork = read;
    return () => this.unregistered.push('unfinished');
  }
  newLongestRunningProcessorSecondsMetric(name: string, read: () => number) {
    this.names.push(`longest:${name}`);
    this.longestRunning = read;
    return () => this.unregistered.push('longest');
  }
  newRetriesMetric(name: string) {
    this.names.push(`retries:${name}`);
    return { inc: () => this.retries++ };
  }
}

function setup() {
  const clock = new FakeClock();
  const metrics = new RecordingProvider();
  const queue = new WorkQueue<string>({ name: 'deployments', clock, metrics });
  return { clock, metrics, queue };
}

describe('WorkQueue metrics', () => {
  it('creates every metric once with the queue name', () => {
    const { metrics } = setup();
    expect(metrics.names.sort()).toEqual([
      'adds:deployments',
      'depth:deployments',
      'latency:deployments',
      'longest:deployments',
      'retries:deployments',
      'unfinished:deployments',
      'workDuration:deployments',
    ]);
  });

  it('counts adds and depth of pending items, not duplicates', async () => {
    const { metrics, queue } = setup();
    queue.add('a');
    queue.add('a');
    queue.add('b');
    expect([metrics.adds, metrics.depth]).toEqual([2, 2]);
    await queue.get();
    expect([metrics.adds, metrics.depth]).toEqual([2, 1]);
    // Added while processing: pending (depth) until handed out again.
    queue.add('a');
    queue.add('a');
    expect([metrics.adds, metrics.depth]).toEqual([3, 2]);
    await queue.get();
    queue.done('a');
    await queue.get();
    expect([metrics.adds, metrics.depth]).toEqual([3, 0]);
  });

  it('observes queue latency from first add to get, and work duration from get to done, in seconds', async () => {
    const { clock, metrics, queue } = setup();
    queue.add('a');
    clock.advance(100);
    queue.add('a');
    queue.add('b');
    clock.advance(150);
    await queue.get();
    expect(metrics.latency).toEqual([0.25]);
    clock.advance(20);
    await queue.get();
    expect(metrics.latency).toEqual([0.25, 0.17]);
    clock.advance(30);
    queue.add('a');
    clock.advance(500);
    queue.done('a');
    expect(metrics.workDuration).toEqual([0.55]);
    queue.done('b');
    expect(metrics.workDuration).toEqual([0.55, 0.53]);
    clock.advance(1000);
    await queue.get();
    // Latency of the add made while 'a' was processing runs from that add.
    expect(metrics.latency).toEqual([0.25, 0.17, 1.5]);
    queue.done('nothing');
    expect(metrics.workDuration).toHaveLength(2);
  });

  it('computes unfinished work and the longest running processor on demand', async () => {
    const { clock, metrics, queue } = setup();
    expect(metrics.unfinishedWork()).toBe(0);
    expect(metrics.longestRunning()).toBe(0);
    queue.add('a');
    queue.add('b');
    await queue.get();
    clock.advance(1000);
    await queue.get();
    clock.advance(500);
    expect(metrics.unfinishedWork()).toBe(2);
    expect(metrics.longestRunning()).toBe(1.5);
    expect(queue.unfinishedWorkSeconds()).toBe(2);
    expect(queue.longestRunningProcessorSeconds()).toBe(1.5);
    queue.done('a');
    expect(metrics.unfinishedWork()).toBe(0.5);
    expect(metrics.longestRunning()).toBe(0.5);
  });

  it('counts a retry for each addAfter and addRateLimited, not for add', () => {
    const { clock, metrics, queue } = setup();
    queue.add('a');
    expect(metrics.retries).toBe(0);
    queue.addAfter('b', 10);
    queue.addAfter('b', 5);
    queue.addAfter('c', 0);
    queue.addRateLimited('d');
    expect(metrics.retries).toBe(4);
    // Delayed items count as adds only when they fall due.
    expect(metrics.adds).toBe(2);
    clock.advance(10);
    expect(metrics.adds).toBe(4);
    queue.shutDown();
    queue.addAfter('e', 10);
    queue.addRateLimited('e');
    expect(metrics.retries).toBe(4);
  });

  it('unregisters the computed gauges once shut down with nothing in flight', async () => {
    const { metrics, queue } = setup();
    queue.add('a');
    await queue.get();
    queue.shutDown();
    expect(metrics.unregistered).toEqual([]);
    queue.done('a');
    expect(metrics.unregistered.sort()).toEqual(['longest', 'unfinished']);
    queue.shutDown();
    await queue.shutDownWithDrain();
    expect(metrics.unregistered).toHaveLength(2);
  });

  it('records nothing with the no-op provider', async () => {
    const clock = new FakeClock();
    const queue = new WorkQueue<string>({
      name: 'quiet',
      clock,
      metrics: noopWorkqueueMetricsProvider,
    });
    queue.add('a');
    queue.addAfter('b', 1);
    clock.advance(1);
    const got = await queue.get();
    expect(got).toEqual({ item: 'a', shutdown: false });
    clock.advance(2000);
    expect(queue.unfinishedWorkSeconds()).toBe(2);
    queue.done('a');
    expect(queue.len()).toBe(1);
  });
});
