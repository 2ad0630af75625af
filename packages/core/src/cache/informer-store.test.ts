import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { InformerStore, objectKey, splitObjectKey } from './informer-store.js';

function pod(namespace: string, name: string, node?: string, rv = '1'): KubernetesObject {
  return {
    metadata: { namespace, name, resourceVersion: rv },
    spec: node ? { nodeName: node } : {},
  };
}

const byNode = (o: KubernetesObject) => {
  const node = (o.spec as { nodeName?: string } | undefined)?.nodeName;
  return node ? [node] : [];
};

describe('InformerStore', () => {
  it('keys objects by namespace/name, or name when cluster-scoped', () => {
    expect(objectKey(pod('ns', 'a'))).toBe('ns/a');
    expect(objectKey({ metadata: { name: 'node-1' } })).toBe('node-1');
    expect(splitObjectKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitObjectKey('node-1')).toEqual({ namespace: '', name: 'node-1' });

    const store = new InformerStore();
    const a = pod('ns', 'a');
    expect(store.upsert(a)).toBeUndefined();
    store.upsert({ metadata: { name: 'node-1' } });
    expect(store.size).toBe(2);
    expect(store.get('ns', 'a')).toBe(a);
    expect(store.getByKey('ns/a')).toBe(a);
    expect(store.getByKey('node-1')?.metadata?.name).toBe('node-1');
    expect(store.keys().sort()).toEqual(['node-1', 'ns/a']);
  });

  it('replaces and removes, keeping the count and namespace index right', () => {
    const store = new InformerStore();
    const first = pod('ns', 'a', undefined, '1');
    const second = pod('ns', 'a', undefined, '2');
    store.upsert(first);
    expect(store.upsert(second)).toBe(first);
    expect(store.size).toBe(1);
    store.upsert(pod('other', 'b'));
    expect(store.byIndex('namespace', 'ns')).toEqual([second]);
    expect(store.indexValues('namespace').sort()).toEqual(['ns', 'other']);
    expect(store.remove('ns', 'a')).toBe(second);
    expect(store.remove('ns', 'a')).toBeUndefined();
    expect(store.size).toBe(1);
    expect(store.listNamespace('ns')).toEqual([]);
    expect(store.indexValues('namespace')).toEqual(['other']);
  });

  it('maintains custom indexes, dropping empty values', () => {
    const store = new InformerStore();
    store.upsert(pod('ns', 'a', 'n1'));
    store.addIndex('node', byNode);
    store.upsert(pod('ns', 'b', 'n1'));
    expect(
      store
        .byIndex('node', 'n1')
        .map((o) => o.metadata?.name)
        .sort(),
    ).toEqual(['a', 'b']);
    store.upsert(pod('ns', 'a', 'n2', '2'));
    expect(store.byIndex('node', 'n1').map((o) => o.metadata?.name)).toEqual(['b']);
    expect(store.byIndex('node', 'n2').map((o) => o.metadata?.name)).toEqual(['a']);
    store.remove('ns', 'b');
    expect(store.indexValues('node')).toEqual(['n2']);
    expect(store.byIndex('node', 'n1')).toEqual([]);
    expect(() => store.addIndex('namespace', byNode)).toThrow(/already exists/);
  });

  it('reports an index function that throws and leaves the object out of that index', () => {
    const failures: string[] = [];
    const store = new InformerStore((index, object) =>
      failures.push(`${index}:${object.metadata?.name}`),
    );
    store.addIndex('broken', (o) => {
      if (o.metadata?.name === 'bad') throw new Error('boom');
      return ['v'];
    });
    store.upsert(pod('ns', 'bad'));
    store.upsert(pod('ns', 'good'));
    expect(store.size).toBe(2);
    expect(store.byIndex('broken', 'v').map((o) => o.metadata?.name)).toEqual(['good']);
    expect(failures).toEqual(['broken:bad']);
  });
});
