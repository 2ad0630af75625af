import type { Pod } from '@ops/core';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { sidecarHash, sidecarHashAnnotation } from '../webhook/sidecar-hash.js';
import { countPods, readyCondition } from './sidecar-set-status.js';

const logging = {
  metadata: { name: 'logging' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    containers: [{ name: 'log-agent', image: 'b' }],
  },
} as unknown as SidecarSet;
const current = sidecarHash(logging);

const pod = (options: {
  hash?: string;
  ready?: boolean;
  phase?: string;
  deleting?: boolean;
  namespace?: string;
}): Pod =>
  ({
    metadata: {
      name: 'p',
      namespace: options.namespace ?? 'default',
      ...(options.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
      ...(options.hash
        ? { annotations: { [sidecarHashAnnotation]: JSON.stringify({ logging: options.hash }) } }
        : {}),
    },
    status: {
      phase: options.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: options.ready ? 'True' : 'False' }],
    },
  }) as Pod;

describe('countPods', () => {
  it('counts active matched Pods outside kube-system and its own namespace, those with the current hash, and those of them that are Ready', () => {
    const counts = countPods(logging, [
      pod({ hash: current, ready: true }),
      pod({ hash: current, ready: false }),
      pod({ hash: 'old', ready: true }),
      pod({}),
      pod({ hash: current, ready: true, phase: 'Succeeded' }),
      pod({ hash: current, ready: true, deleting: true }),
      pod({ ready: true, namespace: 'kube-system' }),
      pod({ ready: true, namespace: 'sidecar-operator-system' }),
    ]);
    expect(counts).toEqual({ matchedPods: 4, updatedPods: 2, readyPods: 1 });
  });
});

describe('readyCondition', () => {
  it('says why UPDATED is below MATCHED and what to do', () => {
    const condition = readyCondition({ matchedPods: 3, updatedPods: 1, readyPods: 1 });
    expect(condition).toMatchObject({ status: 'False', reason: 'PodsNotUpdated' });
    expect(condition.message).toMatch(
      /^2 of 3 matched Pods do not run the current sidecar containers/,
    );
    expect(condition.message).toContain('kubectl rollout restart');
  });

  it('is True when every matched Pod is updated, or none matches', () => {
    expect(readyCondition({ matchedPods: 2, updatedPods: 2, readyPods: 1 })).toEqual({
      type: 'Ready',
      status: 'True',
      reason: 'AllPodsUpdated',
      message: 'all 2 matched Pods run the current sidecar containers (1 ready)',
    });
    expect(readyCondition({ matchedPods: 0, updatedPods: 0, readyPods: 0 }).reason).toBe(
      'NoMatchingPods',
    );
  });
});
