import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { KubeTransport } from '../transport/kube-transport.js';
import { leaseDescriptor } from './ring-membership.js';
import { serverShardsWatches } from './server-side-sharding.js';

const widgets = {
  group: 'example.com',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
};
const leases = { descriptor: leaseDescriptor, namespace: 'ring-leases' };
const echo = (path: string) =>
  JSON.stringify({ metadata: { resourceVersion: '1', shardInfo: { selector: path } }, items: [] });
const silent = JSON.stringify({ metadata: { resourceVersion: '1' }, items: [] });

/** A transport answering each path as `answers` says (200 with the text, or a status). */
function transport(answers: Record<string, string | number>) {
  const asked: Array<{ path: string; query: unknown }> = [];
  const fake: Pick<KubeTransport, 'request'> = {
    request: async (request: { path: string; query?: unknown }) => {
      asked.push({ path: request.path, query: request.query });
      const answer = answers[request.path] ?? 404;
      return typeof answer === 'number'
        ? { status: answer, text: '{"kind":"Status"}' }
        : { status: 200, text: answer };
    },
  } as unknown as Pick<KubeTransport, 'request'>;
  return { fake, asked };
}

describe('serverShardsWatches', () => {
  const log = pino({ level: 'silent' });

  it('says yes when the kind’s own list echoes the selector, asking nothing more', async () => {
    const { fake, asked } = transport({ '/apis/example.com/v1/widgets': echo('x') });
    expect(await serverShardsWatches(fake, widgets, undefined, log, leases)).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.query).toEqual({
      limit: 1,
      shardSelector:
        "shardRange(object.metadata.namespace, '0x0000000000000000', '0x10000000000000000')",
    });
  });

  it('asks the ring’s Leases when a custom resource’s list echoes nothing (kube-apiserver 1.37 filters them silently)', async () => {
    const { fake, asked } = transport({
      '/apis/example.com/v1/widgets': silent,
      '/apis/coordination.k8s.io/v1/namespaces/ring-leases/leases': echo('x'),
    });
    expect(await serverShardsWatches(fake, widgets, undefined, log, leases)).toBe(true);
    expect(asked.map((request) => request.path)).toEqual([
      '/apis/example.com/v1/widgets',
      '/apis/coordination.k8s.io/v1/namespaces/ring-leases/leases',
    ]);
  });

  it('says no when neither echoes, when there is nothing to fall back on, and on a refusal', async () => {
    const neither = transport({
      '/apis/example.com/v1/widgets': silent,
      '/apis/coordination.k8s.io/v1/namespaces/ring-leases/leases': silent,
    });
    expect(await serverShardsWatches(neither.fake, widgets, undefined, log, leases)).toBe(false);
    const alone = transport({ '/apis/example.com/v1/widgets': silent });
    expect(await serverShardsWatches(alone.fake, widgets, undefined, log)).toBe(false);
    expect(alone.asked).toHaveLength(1);
    const refused = transport({ '/apis/example.com/v1/namespaces/team/widgets': 403 });
    expect(await serverShardsWatches(refused.fake, widgets, 'team', log)).toBe(false);
  });
});
