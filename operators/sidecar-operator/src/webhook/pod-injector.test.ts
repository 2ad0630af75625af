import type { AdmissionRequest } from '@ops/core/webhook';
import { describe, expect, it } from 'vitest';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { podInjector, podWebhook } from './pod-injector.js';

const sidecarSet = (name: string, containers: Array<{ name: string; image: string }>) =>
  ({
    metadata: { name },
    spec: { selector: { matchLabels: { app: 'web' } }, containers },
  }) as unknown as SidecarSet;

const create = (labels: Record<string, string>) =>
  ({
    uid: 'u',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: 'default',
    operation: 'CREATE',
    userInfo: {},
    object: {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', labels },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    },
  }) as AdmissionRequest;

const patchOf = (result: { patch?: string }) =>
  JSON.parse(Buffer.from(result.patch ?? '', 'base64').toString('utf8')) as Array<{
    op: string;
    path: string;
  }>;

describe('podInjector', () => {
  it('answers from the lister alone with a JSON patch adding the sidecar and the annotation', async () => {
    let listed = 0;
    const handler = podInjector({
      list: async () => {
        listed += 1;
        return [sidecarSet('logging', [{ name: 'log-agent', image: 'busybox' }])];
      },
    });
    const result = await handler(create({ app: 'web' }));
    expect(listed).toBe(1);
    expect(result).toMatchObject({ allowed: true, patchType: 'JSONPatch' });
    expect(patchOf(result as { patch?: string }).map(({ op, path }) => `${op} ${path}`)).toEqual(
      expect.arrayContaining(['add /spec/containers/1', 'add /metadata/annotations']),
    );
  });

  it('allows an unmatched Pod without a patch, and warns about a container it leaves out', async () => {
    const handler = podInjector({
      list: async () => [
        sidecarSet('a', [{ name: 'proxy', image: 'x' }]),
        sidecarSet('b', [{ name: 'proxy', image: 'y' }]),
      ],
    });
    expect(await handler(create({ app: 'db' }))).toEqual({ allowed: true });
    const warned = await handler(create({ app: 'web' }));
    expect(warned.warnings).toEqual([
      'SidecarSet b: container "proxy" not injected, the name is taken by SidecarSet a',
    ]);
  });

  it('fails the admission when the SidecarSets cannot be read (the failure policy decides)', async () => {
    const handler = podInjector({
      list: async () => {
        throw new Error('the informer for sidecarsets did not sync');
      },
    });
    await expect(handler(create({ app: 'web' }))).rejects.toThrow('did not sync');
  });
});

describe('podWebhook', () => {
  it('is mpod.kb.io on Pod CREATE: Fail, 3 s, leaving out kube-system and the operator namespace', () => {
    const webhook = podWebhook({ list: async () => [] });
    expect(webhook).toMatchObject({
      type: 'mutating',
      name: 'mpod.kb.io',
      path: '/mutate-sidecar-pod',
      failurePolicy: 'Fail',
      timeoutSeconds: 3,
      namespaceSelector: {
        matchExpressions: [
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'NotIn',
            values: ['kube-system', 'sidecar-operator-system'],
          },
        ],
      },
    });
  });
});
