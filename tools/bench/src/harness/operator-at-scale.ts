import {
  Client,
  isAlreadyExists,
  isConflict,
  type KubernetesObject,
  type Manager,
  type ManagerOptions,
} from '@ops/core';
import type { BuilderOptions } from '@ops/core/controller';
import type { BenchServer } from './bench-server.js';
import { settledHeapUsed } from './gc.js';
import { startManager } from './manager.js';
import { waitUntil } from './wait.js';
import { writesAtRest } from './writes-at-rest.js';

const writeVerbs = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** What {@link runOperatorAtScale} drives: one operator and its custom resource. */
export interface OperatorAtScale {
  /** The namespace everything is created in (and the manager is restricted to). */
  namespace: string;
  /** The custom resource's CRD, installed first. */
  crd: KubernetesObject;
  apiVersion: string;
  kind: string;
  /**
   * Adds the operator's controllers to the manager, with `controller` over the options the
   * operator chose (see {@link RuntimeVariant}).
   */
  configure: (manager: Manager, controller: BuilderOptions) => void;
  /** The `index`-th object to create. */
  object: (index: number) => KubernetesObject;
  /** Whether the operator is done with an object, as its cache shows it (the cached object itself: do not change it). */
  done: (object: KubernetesObject) => boolean;
  /** Names the wait in a timeout error, e.g. `1000 MyJobs to be completed`. */
  description: string;
}

/**
 * Which controller runtime an at-scale run measures: the manager's options and the controller
 * options given over the operator's own.
 */
export interface RuntimeVariant {
  /** `before` or `after`, as the report names it. */
  name: string;
  manager: Partial<ManagerOptions>;
  controller: BuilderOptions;
}

/**
 * The runtime of round two of core (before issue #31): the FIFO queue, no read-your-writes
 * (nor the skipping of a controller's own write events that rests on it), and none of what an
 * operator adopted from #31 (its reconcile timeout; no operator adopted metadata-only
 * watches). Warm standby needs leader election, which these runs do not use.
 */
export const roundTwoRuntime: RuntimeVariant = {
  name: 'before',
  manager: { readYourWrites: false },
  controller: { usePriorityQueue: false, reconciliationTimeoutMs: undefined },
};

/** Core's defaults with what the operator adopted (its own options, untouched). */
export const roundThreeRuntime: RuntimeVariant = { name: 'after', manager: {}, controller: {} };

/** The measurements of {@link runOperatorAtScale}. */
export interface OperatorAtScaleResult {
  /** Seconds from the first create until every object is done. */
  seconds: number;
  /** Seconds spent creating the objects (part of `seconds`). */
  createSeconds: number;
  /** The operator's writes until every object was done. */
  writesToDone: number;
  /** The operator's write count once its writes had stopped (see writesAtRest). */
  settled: number;
  /** The operator's writes during the quiet window once everything was done (should be 0). */
  quietWrites: number;
  /** Reconciles the operator's controllers ran until every object was done. */
  reconcilesToDone: number;
  /** Writes of the operator answered 409 (Conflict or AlreadyExists) until every object was done. */
  conflictsToDone: number;
  /**
   * The bench process's heap in use once every object was done, minus before the manager
   * started (both after full garbage collections): the operator's caches, queues and state.
   * The first run of a process is also charged some one-time costs (see runBeforeAndAfter).
   */
  heapBytes: number;
}

/** The write methods of the client whose 409 answers are counted. */
const clientWrites = [
  'create',
  'update',
  'updateStatus',
  'patch',
  'patchStatus',
  'apply',
  'delete',
] as const;

/**
 * Counts the writes of `client` (a manager's: the one its reconcilers are given) that fail
 * with 409, Conflict or AlreadyExists, by wrapping its write methods; `counter.conflicts`
 * grows with each. The calls are otherwise unchanged.
 */
function countConflicts(client: Client, counter: { conflicts: number }): void {
  const writable = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of clientWrites) {
    const original = writable[method];
    if (original === undefined) throw new Error(`the client has no ${method} method to count`);
    writable[method] = async (...args: unknown[]) => {
      try {
        return await original.apply(client, args);
      } catch (error) {
        if (isConflict(error) || isAlreadyExists(error)) counter.conflicts++;
        throw error;
      }
    };
  }
}

/** The sum of `controller_runtime_reconcile_total` (every controller, every result) in `text`. */
export function reconcilesIn(metricsText: string): number {
  let total = 0;
  for (const line of metricsText.split('\n')) {
    if (!line.startsWith('controller_runtime_reconcile_total{')) continue;
    const value = Number(
      line
        .slice(line.lastIndexOf('}') + 1)
        .trim()
        .split(' ')[0],
    );
    if (Number.isFinite(value)) total += value;
  }
  return total;
}

/**
 * An operator at scale on `server`: installs the CRD, starts the operator's manager (with
 * `variant`'s options) counting its writes and their 409 answers, creates `count` objects in
 * batches of 50, waits (up to 5 minutes) until the cache shows every one done, notes the
 * reconciles so far and the heap, then counts the writes made during `quietMs` of rest. Stops
 * the manager.
 */
export async function runOperatorAtScale(
  server: BenchServer,
  subject: OperatorAtScale,
  count: number,
  quietMs: number,
  variant: RuntimeVariant = roundThreeRuntime,
): Promise<OperatorAtScaleResult> {
  const { namespace } = subject;
  const admin = new Client({ kubeConfig: server.kubeConfig() });
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await admin.create(subject.crd);
  let operatorWrites = 0;
  const counter = { conflicts: 0 };
  const heapBefore = settledHeapUsed();
  const configure = (manager: Manager) => {
    countConflicts(manager.client, counter);
    subject.configure(manager, variant.controller);
  };
  const running = await startManager(server, namespace, configure, {
    ...variant.manager,
    onRequest: (verb) => {
      if (writeVerbs.has(verb)) operatorWrites++;
    },
  });
  // Read by reference from the operator's own informer: the cache's list deep-copies every
  // object, which at 1,000 objects polled every 20 ms took most of the operator's CPU.
  const informer = await running.manager.cache.informerFor(subject.apiVersion, subject.kind, {
    namespace,
  });
  const doneCount = () => informer.list({ namespace }).filter(subject.done).length;
  const started = performance.now();
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        admin.create(subject.object(i + j)),
      ),
    );
  }
  const created = performance.now();
  await waitUntil(() => doneCount() === count, subject.description, 300_000, 20);
  const done = performance.now();
  const writesToDone = operatorWrites;
  const conflictsToDone = counter.conflicts;
  const reconcilesToDone = reconcilesIn(await running.manager.metrics.metrics());
  const heapBytes = settledHeapUsed() - heapBefore;
  const { settled, quietWrites } = await writesAtRest(() => operatorWrites, quietMs);
  await running.stop();
  return {
    seconds: (done - started) / 1000,
    createSeconds: (created - started) / 1000,
    writesToDone,
    settled,
    quietWrites,
    reconcilesToDone,
    conflictsToDone,
    heapBytes,
  };
}
