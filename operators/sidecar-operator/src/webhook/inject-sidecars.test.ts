import type { Pod } from '@ops/core';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { injectSidecars } from './inject-sidecars.js';
import { sidecarHash, sidecarHashAnnotation } from './sidecar-hash.js';

const sidecarSet = (
  name: string,
  containers: Array<Record<string, unknown>>,
  selector: SidecarSet['spec']['selector'] = { matchLabels: { app: 'web' } },
): SidecarSet =>
  ({
    apiVersion: 'apps.chinalhr.github.io/v1alpha1',
    kind: 'SidecarSet',
    metadata: { name },
    spec: { selector, containers },
  }) as SidecarSet;

const pod = (
  labels: Record<string, string>,
  containers = [{ name: 'app', image: 'nginx' }],
): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'default', labels },
  spec: { containers },
});

const logging = sidecarSet('logging', [
  { name: 'log-agent', image: 'busybox:1.36', command: ['sh', '-c', 'tail -f /dev/null'] },
]);

describe('injectSidecars', () => {
  it('adds the containers with IS_INJECTED=true and annotates the hash', () => {
    const input = pod({ app: 'web' });
    const { pod: injected, added, skipped } = injectSidecars(input, [logging]);
    expect(injected.spec?.containers).toEqual([
      { name: 'app', image: 'nginx' },
      {
        name: 'log-agent',
        image: 'busybox:1.36',
        command: ['sh', '-c', 'tail -f /dev/null'],
        env: [{ name: 'IS_INJECTED', value: 'true' }],
      },
    ]);
    expect(JSON.parse(injected.metadata?.annotations?.[sidecarHashAnnotation] ?? '')).toEqual({
      logging: sidecarHash(logging),
    });
    expect(added).toEqual(['logging/log-agent']);
    expect(skipped).toEqual([]);
    // Neither input changed.
    expect(input.spec?.containers).toHaveLength(1);
    expect(logging.spec.containers?.[0]).not.toHaveProperty('env');
  });

  it('leaves a Pod whose labels do not match untouched, and an empty selector matches nothing', () => {
    const input = pod({ app: 'db' });
    const empty = sidecarSet('empty', [{ name: 'x', image: 'x' }], {});
    const absent = { ...sidecarSet('absent', [{ name: 'y', image: 'y' }]), spec: {} } as SidecarSet;
    const result = injectSidecars(input, [logging, empty, absent]);
    expect(result.matched).toEqual([]);
    expect(result.pod).toEqual(input);
    expect(injectSidecars(pod({ app: 'web' }), [empty, absent]).matched).toEqual([]);
  });

  it('is idempotent: injecting an injected Pod again changes nothing', () => {
    const once = injectSidecars(pod({ app: 'web' }), [logging]).pod;
    const twice = injectSidecars(once, [logging]);
    expect(twice.pod).toEqual(once);
    expect(twice.added).toEqual([]);
    expect(twice.skipped).toEqual([]);
  });

  it('keeps the hash recorded at injection when the SidecarSet changed since', () => {
    const once = injectSidecars(pod({ app: 'web' }), [logging]).pod;
    const changed = sidecarSet('logging', [{ name: 'log-agent', image: 'busybox:1.37' }]);
    const again = injectSidecars(once, [changed]).pod;
    expect(again).toEqual(once);
    expect(sidecarHash(changed)).not.toBe(sidecarHash(logging));
  });

  it('lets two matching SidecarSets both inject, in name order', () => {
    const metrics = sidecarSet('metrics', [{ name: 'exporter', image: 'prom/node-exporter' }], {
      matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'api'] }],
    });
    const { pod: injected, added } = injectSidecars(pod({ app: 'web' }), [metrics, logging]);
    expect(injected.spec?.containers?.map((c) => c.name)).toEqual(['app', 'log-agent', 'exporter']);
    expect(added).toEqual(['logging/log-agent', 'metrics/exporter']);
    expect(injected.metadata?.annotations?.[sidecarHashAnnotation]).toBe(
      JSON.stringify({ logging: sidecarHash(logging), metrics: sidecarHash(metrics) }),
    );
  });

  it('resolves name clashes without duplicates: the Pod wins, then the SidecarSet whose name sorts first', () => {
    const alpha = sidecarSet('alpha', [
      { name: 'proxy', image: 'envoy:a' },
      { name: 'app', image: 'never' },
    ]);
    const beta = sidecarSet('beta', [
      { name: 'proxy', image: 'envoy:b' },
      { name: 'agent', image: 'agent:b' },
    ]);
    const { pod: injected, skipped } = injectSidecars(pod({ app: 'web' }), [beta, alpha]);
    const containers = injected.spec?.containers ?? [];
    expect(containers.map((c) => `${c.name}:${c.image}`)).toEqual([
      'app:nginx',
      'proxy:envoy:a',
      'agent:agent:b',
    ]);
    expect(new Set(containers.map((c) => c.name)).size).toBe(containers.length);
    expect(skipped).toEqual([
      { sidecarSet: 'alpha', container: 'app', takenBy: 'the Pod' },
      { sidecarSet: 'beta', container: 'proxy', takenBy: 'SidecarSet alpha' },
    ]);
  });

  it('keeps annotations already on the Pod, and replaces an IS_INJECTED the SidecarSet declares', () => {
    const input = pod({ app: 'web' });
    input.metadata = { ...input.metadata, annotations: { team: 'a' } };
    const declared = sidecarSet('logging', [
      {
        name: 'log-agent',
        image: 'b',
        env: [
          { name: 'IS_INJECTED', value: 'no' },
          { name: 'A', value: '1' },
        ],
      },
    ]);
    const { pod: injected } = injectSidecars(input, [declared]);
    expect(injected.metadata?.annotations?.team).toBe('a');
    expect(injected.spec?.containers?.[1]?.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'IS_INJECTED', value: 'true' },
    ]);
  });

  it('treats an invalid selector as matching nothing', () => {
    const bad = sidecarSet('bad', [{ name: 'x', image: 'x' }], {
      matchExpressions: [{ key: 'app', operator: 'In', values: [] }],
    });
    expect(injectSidecars(pod({ app: 'web' }), [bad]).matched).toEqual([]);
  });
});
