import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { LowPriority } from '../queue/controller-queue.js';
import { ItemExponentialFailureRateLimiter } from '../queue/item-exponential-failure-rate-limiter.js';
import { PriorityQueue } from '../queue/priority-queue.js';
import { WorkQueue } from '../queue/work-queue.js';
import { Controller } from './controller.js';
import { enqueueForObject } from './event-handlers.js';
import { eventPriority } from './event-priority.js';
import type { Reconciler, Result } from './reconcile.js';

const until = async (check: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
};

const object = (name: string, resourceVersion = '1'): KubernetesObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: 'ns', name, resourceVersion },
});

/** A controller of one worker recording the names it reconciles, in order. */
function recording(options: { usePriorityQueue?: boolean; reconciler?: Reconciler } = {}) {
  const seen: string[] = [];
  const clock = new FakeClock();
  const controller = new Controller({
    name: 'priorities',
    clock,
    rateLimiter: new ItemExponentialFailureRateLimiter<string>(1, 8),
    ...(options.usePriorityQueue !== undefined
      ? { usePriorityQueue: options.usePriorityQueue }
      : {}),
    reconciler: (request, context) => {
      seen.push(request.name);
      return options.reconciler?.(request, context);
    },
  });
  return { seen, clock, controller };
}

describe('eventPriority', () => {
  it('is low for the initial list and unchanged updates, 0 for everything else', () => {
    expect(eventPriority({ type: 'create', object: object('a'), isInInitialList: true })).toBe(
      LowPriority,
    );
    expect(eventPriority({ type: 'create', object: object('a'), isInInitialList: false })).toBe(0);
    expect(eventPriority({ type: 'create', object: object('a') })).toBe(0);
    expect(eventPriority({ type: 'update', object: object('a', '5'), old: object('a', '5') })).toBe(
      LowPriority,
    );
    expect(eventPriority({ type: 'update', object: object('a', '6'), old: object('a', '5') })).toBe(
      0,
    );
    expect(eventPriority({ type: 'delete', object: object('a') })).toBe(0);
  });
});

describe('Controller with the priority queue (the default)', () => {
  it('reconciles a new object before the initial list and resyncs queued ahead of it', async () => {
    const { seen, controller } = recording();
    expect(controller.queue).toBeInstanceOf(PriorityQueue);
    for (const name of ['listed-1', 'listed-2']) {
      controller.handle(
        { type: 'create', object: object(name), isInInitialList: true },
        enqueueForObject,
      );
    }
    controller.handle(
      { type: 'update', object: object('resynced', '3'), old: object('resynced', '3') },
      enqueueForObject,
    );
    controller.handle({ type: 'create', object: object('new') }, enqueueForObject);
    controller.handle(
      { type: 'update', object: object('changed', '4'), old: object('changed', '3') },
      enqueueForObject,
    );
    controller.start();
    await until(() => seen.length === 5);
    expect(seen).toEqual(['new', 'changed', 'listed-1', 'listed-2', 'resynced']);
    await controller.stop();
  });

  it('raises a listed object that then changes to the default priority', async () => {
    const { seen, controller } = recording();
    controller.handle(
      { type: 'create', object: object('a'), isInInitialList: true },
      enqueueForObject,
    );
    controller.handle(
      { type: 'create', object: object('b'), isInInitialList: true },
      enqueueForObject,
    );
    controller.handle(
      { type: 'update', object: object('b', '2'), old: object('b', '1') },
      enqueueForObject,
    );
    controller.start();
    await until(() => seen.length === 2);
    expect(seen).toEqual(['b', 'a']);
    await controller.stop();
  });

  it("requeues at the Result's priority, else at the priority the request had", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const firstOfEach = new Set<string>();
    const { seen, clock, controller } = recording({
      reconciler: async (request): Promise<Result | undefined> => {
        const first = !firstOfEach.has(request.name);
        firstOfEach.add(request.name);
        if (request.name === 'blocker') await gate;
        if (first && request.name === 'urgent') return { requeueAfterMs: 10, priority: 50 };
        if (first && request.name === 'listed') throw new Error('fails once');
        return undefined;
      },
    });
    controller.handle(
      { type: 'create', object: object('listed'), isInInitialList: true },
      enqueueForObject,
    );
    controller.enqueue({ namespace: 'ns', name: 'urgent' });
    controller.start();
    await until(() => seen.length === 2);
    expect(seen).toEqual(['urgent', 'listed']);
    controller.enqueue({ namespace: 'ns', name: 'blocker' });
    await until(() => seen.length === 3);
    // The worker is busy: queue new work, then let both requeues fall due behind it.
    controller.enqueue({ namespace: 'ns', name: 'a' });
    controller.enqueue({ namespace: 'ns', name: 'b' });
    clock.advance(10);
    release();
    await until(() => seen.length === 7);
    // urgent came back at 50, listed at its own LowPriority after its error.
    expect(seen.slice(3)).toEqual(['urgent', 'a', 'b', 'listed']);
    await controller.stop();
  });

  it('refuses a Result priority that is not a whole number: an error, retried at the old priority', async () => {
    const { seen, clock, controller } = recording({
      reconciler: () => (seen.length === 1 ? { priority: 0.5 } : undefined),
    });
    controller.enqueue({ namespace: 'ns', name: 'x' });
    controller.start();
    await until(() => seen.length === 1);
    await until(() => controller.queue.numRequeues('ns/x') === 1);
    clock.advance(1);
    await until(() => seen.length === 2);
    await controller.stop();
  });
});

describe('Controller with the FIFO queue (usePriorityQueue: false)', () => {
  it('reconciles in order of arrival, whatever the event', async () => {
    const { seen, controller } = recording({ usePriorityQueue: false });
    expect(controller.queue).toBeInstanceOf(WorkQueue);
    controller.handle(
      { type: 'create', object: object('listed'), isInInitialList: true },
      enqueueForObject,
    );
    controller.handle({ type: 'create', object: object('new') }, enqueueForObject);
    controller.enqueue({ namespace: 'ns', name: 'urgent' }, 100);
    controller.start();
    await until(() => seen.length === 3);
    expect(seen).toEqual(['listed', 'new', 'urgent']);
    await controller.stop();
  });
});
