import { Client, type KubernetesObject, type Manager } from '@ops/core';
import type { BenchServer } from './bench-server.js';
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
  /** Adds the operator's controllers to the manager. */
  configure: (manager: Manager) => void;
  /** The `index`-th object to create. */
  object: (index: number) => KubernetesObject;
  /** Whether the operator is done with an object, as its cache shows it (the cached object itself: do not change it). */
  done: (object: KubernetesObject) => boolean;
  /** Names the wait in a timeout error, e.g. `1000 MyJobs to be completed`. */
  description: string;
}

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
}

/**
 * An operator at scale on `server`: installs the CRD, starts the operator's manager counting its
 * writes, creates `count` objects in batches of 50, waits (up to 5 minutes) until the cache shows
 * every one done, then counts the writes made during `quietMs` of rest. Stops the manager.
 */
export async function runOperatorAtScale(
  server: BenchServer,
  subject: OperatorAtScale,
  count: number,
  quietMs: number,
): Promise<OperatorAtScaleResult> {
  const { namespace } = subject;
  const admin = new Client({ kubeConfig: server.kubeConfig() });
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await admin.create(subject.crd);
  let operatorWrites = 0;
  const running = await startManager(server, namespace, subject.configure, {
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
  const { settled, quietWrites } = await writesAtRest(() => operatorWrites, quietMs);
  await running.stop();
  return {
    seconds: (done - started) / 1000,
    createSeconds: (created - started) / 1000,
    writesToDone,
    settled,
    quietWrites,
  };
}
