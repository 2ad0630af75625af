import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { ReconcileTimeoutError } from '../errors/reconcile-timeout-error.js';
import { MetricsRegistry } from '../metrics/metrics-registry.js';
import { ItemExponentialFailureRateLimiter } from '../queue/item-exponential-failure-rate-limiter.js';
import { Controller } from './controller.js';
import type { Reconciler } from './reconcile.js';

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

function timed(reconciler: Reconciler, workers = 1) {
  const clock = new FakeClock();
  const registry = new MetricsRegistry();
  const controller = new Controller({
    name: 'timed',
    clock,
    reconciler,
    maxConcurrentReconciles: workers,
    reconciliationTimeoutMs: 100,
    rateLimiter: new ItemExponentialFailureRateLimiter<string>(5, 1000),
    metrics: registry.controller('timed'),
  });
  const sample = async (line: string) =>
    (await registry.metrics()).split('\n').find((l) => l.startsWith(line));
  return { clock, controller, sample };
}

describe('Controller reconciliationTimeoutMs', () => {
  it('aborts the signal at the deadline, counts a timeout and an error, and retries with backoff', async () => {
    const reasons: unknown[] = [];
    let calls = 0;
    const { clock, controller, sample } = timed(async (_request, { signal }) => {
      calls++;
      if (calls > 1) return undefined;
      // Honours its signal: gives up once it is aborted.
      await new Promise<void>((_, reject) =>
        signal.addEventListener('abort', () => {
          reasons.push(signal.reason);
          reject(signal.reason);
        }),
      );
      return undefined;
    });
    controller.enqueue({ namespace: 'ns', name: 'slow' });
    controller.start();
    await until(() => calls === 1);
    clock.advance(99);
    expect(reasons).toEqual([]);
    clock.advance(1);
    await until(() => reasons.length === 1);
    const reason = reasons[0];
    expect(ReconcileTimeoutError.isInstance(reason)).toBe(true);
    expect((reason as ReconcileTimeoutError).timeoutMs).toBe(100);
    expect((reason as Error).message).toContain('ran past its reconciliationTimeoutMs of 100 ms');
    await until(() => controller.queue.numRequeues('ns/slow') === 1);
    expect(await sample('controller_runtime_reconcile_timeouts_total')).toBe(
      'controller_runtime_reconcile_timeouts_total{controller="timed"} 1',
    );
    expect(await sample('controller_runtime_reconcile_errors_total')).toBe(
      'controller_runtime_reconcile_errors_total{controller="timed"} 1',
    );
    // The retry waits for the backoff (5 ms), then succeeds.
    clock.advance(4);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    clock.advance(1);
    await until(() => calls === 2);
    await controller.stop();
    expect(
      await sample('controller_runtime_reconcile_total{controller="timed",result="success"}'),
    ).toBe('controller_runtime_reconcile_total{controller="timed",result="success"} 1');
    expect(await sample('controller_runtime_reconcile_timeouts_total')).toBe(
      'controller_runtime_reconcile_timeouts_total{controller="timed"} 1',
    );
  });

  it('frees the worker from a reconcile that ignores its signal, without reconciling its request twice at once', async () => {
    const started: string[] = [];
    let finishHung: () => void = () => undefined;
    const { clock, controller } = timed(async (request) => {
      started.push(request.name);
      if (request.name === 'hung' && started.length === 1) {
        await new Promise<void>((resolve) => {
          finishHung = resolve;
        });
      }
      return undefined;
    });
    controller.enqueue({ namespace: 'ns', name: 'hung' });
    controller.start();
    await until(() => started.length === 1);
    clock.advance(100);
    // The only worker moved on: another request is reconciled while the first call hangs.
    controller.enqueue({ namespace: 'ns', name: 'other' });
    await until(() => started.length === 2);
    expect(started).toEqual(['hung', 'other']);
    // The retry of `hung` falls due, but its first call has not settled: it waits.
    clock.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started).toEqual(['hung', 'other']);
    finishHung();
    await until(() => started.length === 3);
    expect(started).toEqual(['hung', 'other', 'hung']);
    await controller.stop();
  });

  it('does not wait for a timed-out reconcile on stop', async () => {
    let calls = 0;
    const { clock, controller } = timed(async () => {
      calls++;
      await new Promise(() => undefined);
    });
    controller.enqueue({ namespace: 'ns', name: 'forever' });
    controller.start();
    await until(() => calls === 1);
    clock.advance(100);
    await until(() => controller.queue.numRequeues('ns/forever') === 1);
    await controller.stop();
    expect(controller.queue.shuttingDown()).toBe(true);
  });

  it('leaves reconciles that finish in time alone', async () => {
    let calls = 0;
    const { clock, controller, sample } = timed(async () => {
      calls++;
      return undefined;
    });
    controller.enqueue({ namespace: 'ns', name: 'quick' });
    controller.start();
    await until(() => calls === 1);
    clock.advance(1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    expect(clock.pendingTimers()).toBe(0);
    await controller.stop();
    expect(await sample('controller_runtime_reconcile_timeouts_total')).toBe(
      'controller_runtime_reconcile_timeouts_total{controller="timed"} 0',
    );
  });

  it('refuses a timeout that is not a positive number of milliseconds', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(
        () =>
          new Controller({ name: 'x', reconciler: () => undefined, reconciliationTimeoutMs: bad }),
      ).toThrow(/reconciliationTimeoutMs must be a number of milliseconds > 0/);
    }
  });
});
