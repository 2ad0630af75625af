import type { KubernetesObject } from '@ops/core';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { sidecarHashAnnotation } from '../webhook/sidecar-hash.js';
import { sidecarSetsForPod } from './pod-requests.js';

const set = (name: string, selector: unknown) =>
  ({ metadata: { name }, spec: { selector } }) as unknown as SidecarSet;
const sets = [
  set('web', { matchLabels: { app: 'web' } }),
  set('front', { matchExpressions: [{ key: 'tier', operator: 'Exists' }] }),
  set('empty', {}),
  set('invalid', { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] }),
];

describe('sidecarSetsForPod', () => {
  it('wakes the SidecarSets whose selector matches, and those the annotation names', () => {
    const pod: KubernetesObject = {
      metadata: {
        name: 'p',
        namespace: 'default',
        labels: { app: 'web' },
        annotations: { [sidecarHashAnnotation]: '{"gone":"abc","web":"def"}' },
      },
    };
    expect(sidecarSetsForPod(pod, sets)).toEqual([
      { name: 'gone', namespace: '' },
      { name: 'web', namespace: '' },
    ]);
    expect(sidecarSetsForPod({ metadata: { name: 'q', labels: { tier: 'x' } } }, sets)).toEqual([
      { name: 'front', namespace: '' },
    ]);
    expect(sidecarSetsForPod({ metadata: { name: 'r' } }, sets)).toEqual([]);
  });
});
