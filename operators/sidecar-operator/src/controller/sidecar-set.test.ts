import { ApiError, type KubernetesObject } from '@ops/core';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { sidecarHash, sidecarHashAnnotation } from '../webhook/sidecar-hash.js';
import { podLabelIndexValues } from './pod-label-index.js';
import { type SidecarSetReconcilerDeps, sidecarSetReconciler } from './sidecar-set.js';

const logging = (status?: SidecarSet['status']): SidecarSet =>
  ({
    apiVersion: 'apps.chinalhr.github.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name: 'logging', generation: 2 },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      containers: [{ name: 'log-agent', image: 'busybox' }],
    },
    ...(status ? { status } : {}),
  }) as SidecarSet;

const pod = (name: string, hash: string | undefined, ready: boolean): KubernetesObject =>
  ({
    metadata: {
      name,
      namespace: 'default',
      labels: { app: 'web' },
      ...(hash
        ? { annotations: { [sidecarHashAnnotation]: JSON.stringify({ logging: hash }) } }
        : {}),
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }) as KubernetesObject;

/** A reconciler over an in-memory SidecarSet and Pods; records status patches and events. */
function harness(sidecarSet: SidecarSet | undefined, pods: KubernetesObject[]) {
  const patches: Array<{ status: Record<string, unknown> }> = [];
  const events: string[] = [];
  const deps = {
    client: {
      get: async () => {
        if (!sidecarSet)
          throw new ApiError(404, 'NotFound', 'not found', {
            kind: 'Status',
            status: 'Failure',
            code: 404,
            reason: 'NotFound',
          });
        return structuredClone(sidecarSet);
      },
      patchStatus: async (object: KubernetesObject, patch: { status: Record<string, unknown> }) => {
        patches.push(patch);
        return object;
      },
    },
    pods: {
      byIndex: (_name: string, value: string) =>
        pods.filter((p) => podLabelIndexValues(p).includes(value)),
      list: () => pods,
    },
    recorder: {
      event: (_o: unknown, type: string, reason: string) => events.push(`${type} ${reason}`),
    },
    now: () => new Date('2026-11-24T00:00:00Z'),
  } as unknown as SidecarSetReconcilerDeps;
  const reconcile = sidecarSetReconciler(deps);
  const context = { log: pino({ level: 'silent' }), signal: new AbortController().signal };
  return { patches, events, run: () => reconcile({ namespace: '', name: 'logging' }, context) };
}

describe('sidecarSetReconciler', () => {
  const current = sidecarHash(logging());

  it('writes the counts, observedGeneration and the condition, and records the reason as an Event', async () => {
    const h = harness(logging(), [
      pod('a', current, true),
      pod('b', current, false),
      pod('c', 'old', true),
    ]);
    await h.run();
    expect(h.patches).toHaveLength(1);
    expect(h.patches[0]?.status).toMatchObject({
      observedGeneration: 2,
      matchedPods: 3,
      updatedPods: 2,
      readyPods: 1,
      conditions: [
        expect.objectContaining({ type: 'Ready', status: 'False', reason: 'PodsNotUpdated' }),
      ],
    });
    expect(h.events).toEqual(['Warning PodsNotUpdated']);
  });

  it('writes nothing and records nothing when the status already says so', async () => {
    const first = harness(logging(), [pod('a', current, true)]);
    await first.run();
    const status = first.patches[0]?.status as SidecarSet['status'];
    const again = harness(logging(status), [pod('a', current, true)]);
    await again.run();
    expect(again.patches).toEqual([]);
    expect(again.events).toEqual([]);
  });

  it('does nothing for a SidecarSet that is gone', async () => {
    const h = harness(undefined, [pod('a', current, true)]);
    await h.run();
    expect(h.patches).toEqual([]);
  });
});
