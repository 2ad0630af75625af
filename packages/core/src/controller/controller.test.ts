import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { TerminalError } from '../errors/terminal-error.js';
import { ItemExponentialFailureRateLimiter } from '../queue/item-exponential-failure-rate-limiter.js';
import { Controller } from './controller.js';
import { enqueueForObject, enqueueForOwner } from './event-handlers.js';
import { generationChanged } from './predicates.js';
import type { Reconciler, Request } from './reconcile.js';
import type { ReconcileMetrics } from './reconcile-metrics.js';

const fastRetries = () => new ItemExponentialFailureRateLimiter<string>(1, 8);
const until = async (check: () => boolean, timeoutMs = 3000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

function recordingMetrics() {
  const calls: string[] = [];
  const metrics: ReconcileMetrics = {
    observeReconcile: (o) => {
      calls.push(o.result);
      if (o.result === 'error') calls.push(o.terminal ? 'failed:terminal' : 'failed');
      if (o.panic) calls.push('panic');
    },
    setMaxConcurrentReconciles: (n) => calls.push(`max=${n}`),
    incActiveWorkers: () => undefined,
    decActiveWorkers: () => undefined,
  };
  return { calls, metrics };
}

describe('Controller', () => {
  it('reconciles each queued request, deduplicating while queued', async () => {
    const seen: Request[] = [];
    const controller = new Controller({
      name: 'demo',
      reconciler: (request) => void seen.push(request),
    });
    controller.enqueue({ namespace: 'ns', name: 'a' });
    controller.enqueue({ namespace: 'ns', name: 'a' });
    controller.enqueue({ namespace: '', name: 'cluster-scoped' });
    controller.start();
    await until(() => seen.length === 2);
    expect(seen).toEqual([
      { namespace: 'ns', name: 'a' },
      { namespace: '', name: 'cluster-scoped' },
    ]);
    await controller.stop();
  });

  it('never reconciles one request on two workers at once', async () => {
    const running = new Set<string>();
    let overlaps = 0;
    let calls = 0;
    const reconciler: Reconciler = async (request) => {
      if (running.has(request.name)) overlaps++;
      running.add(request.name);
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      running.delete(request.name);
    };
    const controller = new Controller({ name: 'c', reconciler, maxConcurrentReconciles: 4 });
    controller.start();
    for (let i = 0; i < 200; i++) controller.enqueue({ namespace: 'ns', name: `k${i % 5}` });
    await until(() => controller.queue.len() === 0 && running.size === 0 && calls >= 5);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(overlaps).toBe(0);
    await controller.stop();
  });

  it('retries failures with backoff until success, and counts them', async () => {
    const { calls, metrics } = recordingMetrics();
    let attempts = 0;
    const controller = new Controller({
      name: 'flaky',
      metrics,
      rateLimiter: fastRetries(),
      reconciler: () => {
        attempts++;
        if (attempts < 3) throw new Error('not yet');
      },
    });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'x' });
    await until(() => calls.includes('success'));
    expect(attempts).toBe(3);
    expect(calls.filter((c) => c === 'failed')).toHaveLength(2);
    expect(calls.filter((c) => c === 'error')).toHaveLength(2);
    expect(controller.queue.numRequeues('ns/x')).toBe(0);
    await controller.stop();
  });

  it('logs a 409 Conflict at info without a stack, and other failures as errors with theirs', async () => {
    const { calls, metrics } = recordingMetrics();
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line) => lines.push(JSON.parse(line)) });
    const conflict = new ApiError(
      409,
      'Conflict',
      'Operation cannot be fulfilled on widgets.example.com "x": the object has been modified; please apply your changes to the latest version and try again',
      { kind: 'Status', code: 409, reason: 'Conflict' },
    );
    let attempts = 0;
    const controller = new Controller({
      name: 'writer',
      metrics,
      logger,
      rateLimiter: fastRetries(),
      reconciler: () => {
        attempts++;
        if (attempts === 1) throw conflict;
        if (attempts === 2) throw new Error('the API server is down');
      },
    });
    controller.start();
    controller.enqueue({ namespace: 'ns', name: 'x' });
    await until(() => calls.includes('success'));
    await controller.stop();
    const failures = lines.filter((line) => /retrying with backoff/.test(String(line.msg)));
    expect(failures).toHaveLength(2);
    const [first, second] = failures;
    expect(first).toMatchObject({
      level: 30,
      controller: 'writer',
      namespace: 'ns',
      name: 'x',
      reason: 'Conflict',
      error: conflict.message,
      retries: 1,
      msg: 'reconcile hit a conflict (the object changed since it was read); retrying with backoff',
    });
    expect(JSON.stringify(first)).not.toContain('stack');
    expect(second).toMatchObject({ level: 50, msg: 'reconcile failed; retrying with backoff' });
    expect((second?.err as { stack?: string } | undefined)?.stack).toContain(
      'Error: the API server is down',
    );
    // Both are retried and counted as errors, as controller-runtime counts them.
    expect(calls.filter((c) => c === 'error')).toHaveLength(2);
  });

  it('does not retry a TerminalError, and counts programming errors as panics', async () => {
    const { calls, metrics } = recordingMetrics();
    let attempts = 0;
    const controller = new Controller({
      name: 't',
      metrics,
      rateLimiter: fastRetries(),
      reconciler: (request) => {
        attempts++;
        if (request.name === 'terminal') throw new TerminalError('spec is invalid');
        if (attempts < 3) return (undefined as unknown as { x: () => void }).x();
      },
    });
    controller.start();
    controller.enqueue({ namespace: '', name: 'terminal' });
    await until(() => calls.includes('failed:terminal'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(attempts).toBe(1);
    controller.enqueue({ namespace: '', name: 'typo' });
    await until(() => calls.includes('success'));
    expect(calls.filter((c) => c === 'panic')).toHaveLength(1);
    await controller.stop();
  });

  it('honours requeue and requeueAfterMs', async () => {
    const { calls, metrics } = recordingMetrics();
    const times: number[] = [];
    const controller = new Controller({
      name: 'r',
      metrics,
      rateLimiter: fastRetries(),
      reconciler: () => {
        times.push(Date.now());
        if (times.length === 1) return { requeue: true };
        if (times.length === 2) return { requeueAfterMs: 50 };
        return {};
      },
    });
    controller.start();
    controller.enqueue({ namespace: '', name: 'x' });
    await until(() => times.length === 3);
    expect((times[2] ?? 0) - (times[1] ?? 0)).toBeGreaterThanOrEqual(45);
    expect(calls.filter((c) => !c.startsWith('max'))).toEqual([
      'requeue',
      'requeue_after',
      'success',
    ]);
    await controller.stop();
  });

  it('lets in-flight work finish on stop and drops queued work', async () => {
    let finished = 0;
    const controller = new Controller({
      name: 's',
      reconciler: async () => {
        await new Promise((resolve) => setTimeout(resolve, 30));
        finished++;
      },
    });
    controller.start();
    controller.enqueue({ namespace: '', name: 'a' });
    controller.enqueue({ namespace: '', name: 'b' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await controller.stop();
    expect(finished).toBe(1);
  });

  it('routes events through predicates and handlers, surviving a throwing handler', () => {
    const controller = new Controller({ name: 'h', reconciler: () => undefined });
    const object = {
      metadata: {
        name: 'app',
        namespace: 'ns',
        generation: 2,
        ownerReferences: [
          {
            apiVersion: 'core.crd.lixueduan.com/v1',
            kind: 'Application',
            name: 'owner',
            uid: 'u',
            controller: true,
          },
        ],
      },
    };
    controller.handle(
      { type: 'update', object, old: { metadata: { ...object.metadata, generation: 2 } } },
      enqueueForObject,
      [generationChanged],
    );
    expect(controller.queue.len()).toBe(0);
    controller.handle(
      { type: 'update', object, old: { metadata: { ...object.metadata, generation: 1 } } },
      enqueueForObject,
      [generationChanged],
    );
    controller.handle(
      { type: 'create', object },
      enqueueForOwner('core.crd.lixueduan.com/v1', 'Application'),
    );
    expect(controller.queue.len()).toBe(2);
    controller.handle({ type: 'create', object }, () => {
      throw new Error('bug in a map function');
    });
    expect(controller.queue.len()).toBe(2);
  });

  it('rejects bad options with a clear message', () => {
    expect(() => new Controller({ name: '', reconciler: () => undefined })).toThrow(
      'a controller needs a name',
    );
    expect(
      () => new Controller({ name: 'x', reconciler: () => undefined, maxConcurrentReconciles: 0 }),
    ).toThrow('maxConcurrentReconciles must be a whole number >= 1, got 0');
  });
});
