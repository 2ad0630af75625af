import type { KubernetesObject } from '@ops/core';
import { labelSelectorFromObject, Selector } from '@ops/core/meta';
import { describe, expect, it } from 'vitest';
import {
  type PodIndexReader,
  podLabelIndex,
  podLabelIndexValues,
  podsSelectedBy,
} from './pod-label-index.js';

const pod = (name: string, labels?: Record<string, string>): KubernetesObject => ({
  metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
});

/** An index over `pods` as the informer keeps it, counting how it is read. */
function indexOf(pods: KubernetesObject[]) {
  const reads = { byIndex: 0, list: 0 };
  const reader: PodIndexReader = {
    byIndex(name, value) {
      expect(name).toBe(podLabelIndex);
      reads.byIndex += 1;
      return pods.filter((p) => podLabelIndexValues(p).includes(value));
    },
    list() {
      reads.list += 1;
      return pods;
    },
  };
  return { reader, reads };
}

const pods = [
  pod('web-1', { app: 'web', tier: 'front' }),
  pod('web-2', { app: 'web' }),
  pod('api-1', { app: 'api', tier: 'front' }),
  pod('bare'),
];
const names = (found: KubernetesObject[]) => found.map((p) => p.metadata?.name).sort();

describe('podLabelIndexValues', () => {
  it('indexes key=value and the key alone for each label', () => {
    expect(podLabelIndexValues(pods[0] as KubernetesObject)).toEqual([
      'app=web',
      'app',
      'tier=front',
      'tier',
    ]);
    expect(podLabelIndexValues(pod('bare'))).toEqual([]);
  });
});

describe('podsSelectedBy', () => {
  it('finds matchLabels, In and Exists through the index, never listing every Pod', () => {
    const { reader, reads } = indexOf(pods);
    expect(
      names(podsSelectedBy(labelSelectorFromObject({ matchLabels: { app: 'web' } }), reader)),
    ).toEqual(['web-1', 'web-2']);
    expect(
      names(
        podsSelectedBy(
          labelSelectorFromObject({
            matchLabels: { tier: 'front' },
            matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }],
          }),
          reader,
        ),
      ),
    ).toEqual(['api-1', 'web-1']);
    expect(
      names(
        podsSelectedBy(
          labelSelectorFromObject({ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }),
          reader,
        ),
      ),
    ).toEqual(['api-1', 'web-1']);
    expect(reads.list).toBe(0);
    expect(
      podsSelectedBy(labelSelectorFromObject({ matchLabels: { app: 'none' } }), reader),
    ).toEqual([]);
  });

  it('falls back to every Pod for a selector of NotIn/DoesNotExist only, and the nothing selector selects none', () => {
    const { reader, reads } = indexOf(pods);
    const selector = labelSelectorFromObject({
      matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }],
    });
    expect(names(podsSelectedBy(selector, reader))).toEqual(['bare', 'web-2']);
    expect(reads.list).toBe(1);
    expect(podsSelectedBy(Selector.nothing, reader)).toEqual([]);
  });
});
