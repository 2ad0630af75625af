import type { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Environment } from '../environment.js';
import { eventually } from '../eventually.js';
import { kubeRequest } from '../kube-request.js';
import { openWatch } from '../watch-stream.js';
import {
  describeApiPath,
  FaultProxy,
  type ProxiedRequest,
  type ProxyDecision,
} from './fault-proxy.js';

const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data: { a: '1' },
});
const configMapsPath = '/api/v1/namespaces/default/configmaps';

let env: Environment;
beforeAll(async () => {
  env = await Environment.start({ controlPlane: 'local' });
});
afterAll(async () => {
  await env.stop();
});

/** The path of a watch of ConfigMaps from now on (from the resourceVersion of a list now). */
async function watchPathFromNow(config: KubeConfig): Promise<string> {
  const list = await kubeRequest(config, 'GET', configMapsPath);
  const version = (list.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  return `${configMapsPath}?watch=true&resourceVersion=${version}`;
}

/** A proxy to `env` as its admin, deciding each request with `decide`, recording what it saw. */
async function proxyWith(decide?: (request: ProxiedRequest) => ProxyDecision) {
  const seen: ProxiedRequest[] = [];
  const writes: Array<[number | undefined, number]> = [];
  let severed = 0;
  const proxy = await FaultProxy.start(env.kubeConfig, undefined, {
    decide: (request) => {
      seen.push(request);
      return decide?.(request) ?? { action: 'forward' };
    },
    afterWrite: (request, status) => writes.push([request.writeNumber, status]),
    onSevered: () => severed++,
  });
  return { proxy, seen, writes, severed: () => severed, config: proxy.kubeConfig() };
}

describe('describeApiPath', () => {
  it('names the verb, resource (with subresource), namespace and name of API paths', () => {
    const none = new URLSearchParams();
    expect(describeApiPath('GET', '/api/v1/namespaces/a/configmaps/b', none)).toEqual({
      verb: 'get',
      resource: 'configmaps',
      namespace: 'a',
      name: 'b',
    });
    expect(
      describeApiPath('GET', '/api/v1/namespaces/a/configmaps', new URLSearchParams('watch=true')),
    ).toEqual({
      verb: 'watch',
      resource: 'configmaps',
      namespace: 'a',
      name: '',
    });
    expect(describeApiPath('PATCH', '/apis/g.io/v1/namespaces/a/widgets/w/status', none)).toEqual({
      verb: 'patch',
      resource: 'widgets/status',
      namespace: 'a',
      name: 'w',
    });
    expect(describeApiPath('GET', '/api/v1/namespaces', none).verb).toBe('list');
    expect(describeApiPath('DELETE', '/api/v1/namespaces/a/configmaps', none).verb).toBe(
      'deletecollection',
    );
    expect(describeApiPath('POST', '/apis/g.io/v1/widgets', none)).toEqual({
      verb: 'create',
      resource: 'widgets',
      namespace: '',
      name: '',
    });
  });
});

describe('FaultProxy', () => {
  it('forwards as the identity and numbers requests and writes across proxies sharing counters', async () => {
    const { proxy, seen, writes, config } = await proxyWith();
    try {
      expect(
        (await kubeRequest(config, 'POST', configMapsPath, configMap('forwarded'))).status,
      ).toBe(201);
      expect((await kubeRequest(config, 'GET', `${configMapsPath}/forwarded`)).status).toBe(200);
      expect(seen.map((r) => [r.verb, r.requestNumber, r.writeNumber])).toEqual([
        ['create', 1, 1],
        ['get', 2, undefined],
      ]);
      expect(writes).toEqual([[1, 201]]);
      const next = await FaultProxy.start(env.kubeConfig, proxy.counters);
      try {
        await kubeRequest(next.kubeConfig(), 'DELETE', `${configMapsPath}/forwarded`);
        expect(next.counters).toEqual({ requests: 3, writes: 2 });
      } finally {
        await next.sever();
      }
    } finally {
      await proxy.sever();
    }
  });

  it('refuses a write with 409, or 429 and Retry-After, without applying it', async () => {
    const { proxy, config } = await proxyWith((request) =>
      request.writeNumber === 1
        ? { action: 'reject', code: 429, retryAfterSeconds: 1 }
        : request.writeNumber === 2
          ? { action: 'reject', code: 409 }
          : { action: 'forward' },
    );
    try {
      const throttled = await kubeRequest(config, 'POST', configMapsPath, configMap('refused'));
      expect(throttled.status).toBe(429);
      expect(throttled.headers['retry-after']).toBe('1');
      expect(throttled.body).toMatchObject({
        reason: 'TooManyRequests',
        details: { retryAfterSeconds: 1 },
      });
      const conflict = await kubeRequest(config, 'POST', configMapsPath, configMap('refused'));
      expect(conflict.body).toMatchObject({ code: 409, reason: 'Conflict' });
      expect((await kubeRequest(env.kubeConfig, 'GET', `${configMapsPath}/refused`)).status).toBe(
        404,
      );
    } finally {
      await proxy.sever();
    }
  });

  it('applies a write and then answers 504 Timeout (timeout after apply)', async () => {
    const { proxy, config } = await proxyWith((request) =>
      request.writeNumber === 1 ? { action: 'timeout-after-apply' } : { action: 'forward' },
    );
    try {
      const answer = await kubeRequest(config, 'POST', configMapsPath, configMap('applied'));
      expect(answer.status).toBe(504);
      expect(answer.body).toMatchObject({ reason: 'Timeout' });
      expect((await kubeRequest(env.kubeConfig, 'GET', `${configMapsPath}/applied`)).status).toBe(
        200,
      );
    } finally {
      await proxy.sever();
    }
  });

  it('crashes after a write: the write is applied, its answer never comes, nothing passes afterwards', async () => {
    const { proxy, config, severed } = await proxyWith((request) =>
      request.writeNumber === 1 ? { action: 'sever-after' } : { action: 'forward' },
    );
    await expect(
      kubeRequest(config, 'POST', configMapsPath, configMap('crashed')),
    ).rejects.toThrow();
    expect(proxy.isSevered).toBe(true);
    expect(severed()).toBe(1);
    expect((await kubeRequest(env.kubeConfig, 'GET', `${configMapsPath}/crashed`)).status).toBe(
      200,
    );
    await expect(kubeRequest(config, 'GET', configMapsPath)).rejects.toThrow();
  });

  it('holds watch events back for a while, then delivers them in order', async () => {
    const { proxy, config } = await proxyWith();
    try {
      const path = await watchPathFromNow(config);
      const watch = await openWatch(config, path);
      proxy.holdWatchEvents(600);
      const sent = Date.now();
      await kubeRequest(env.kubeConfig, 'POST', configMapsPath, configMap('held-1'));
      await kubeRequest(env.kubeConfig, 'POST', configMapsPath, configMap('held-2'));
      const events = await watch.next(2, 10_000);
      expect(Date.now() - sent).toBeGreaterThanOrEqual(550);
      expect(events.map((e) => e.object.metadata.name)).toEqual(['held-1', 'held-2']);
      watch.close();
    } finally {
      await proxy.sever();
    }
  });

  it('loses events: the event is dropped, its watch ends, and the resumed watch is answered 410 Gone', async () => {
    const { proxy, config } = await proxyWith();
    try {
      const path = await watchPathFromNow(config);
      const watch = await openWatch(config, path);
      proxy.loseWatchEvents(1);
      await kubeRequest(env.kubeConfig, 'POST', configMapsPath, configMap('lost'));
      await watch.ended;
      expect(watch.events).toEqual([]);
      const resumed = await openWatch(config, path);
      const [gone] = await resumed.next(1, 10_000);
      expect(gone).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
      await resumed.ended;
      // Only once: the watch after that resumes normally.
      const again = await openWatch(config, path);
      const [added] = await again.next(1, 10_000);
      expect(added).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'lost' } } });
      again.close();
    } finally {
      await proxy.sever();
    }
  });

  it('expires watches (410 Gone on resume) and drops them mid-stream', async () => {
    const { proxy, config } = await proxyWith();
    try {
      const path = await watchPathFromNow(config);
      const expired = await openWatch(config, path);
      proxy.expireWatches();
      await expired.ended;
      const resumed = await openWatch(config, path);
      expect(await resumed.next(1, 10_000)).toMatchObject([
        { type: 'ERROR', object: { code: 410 } },
      ]);
      const dropped = await openWatch(config, path);
      proxy.dropWatches();
      await dropped.ended;
    } finally {
      await proxy.sever();
    }
  });
});

describe('FaultProxy.serveStaleSyncs', () => {
  it("serves a WatchList the run's first initial state, then what changed since, held back", async () => {
    const counters = { requests: 0, writes: 0, firstSyncs: new Map<string, string[]>() };
    const syncPath = `${configMapsPath}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
    const first = await FaultProxy.start(env.kubeConfig, counters);
    const initial = await openWatch(first.kubeConfig(), syncPath);
    const before = (await initial.next(1, 10_000))[0];
    await eventually(() => counters.firstSyncs.size === 1, {
      description: 'the first sync recorded',
    });
    initial.close();
    await first.sever();
    expect(before?.type === 'BOOKMARK' || before?.type === 'ADDED').toBe(true);
    await kubeRequest(env.kubeConfig, 'POST', configMapsPath, configMap('after-first-sync'));
    const lagging = await FaultProxy.start(env.kubeConfig, counters);
    try {
      lagging.serveStaleSyncs('configmaps', 800);
      const stale = await openWatch(lagging.kubeConfig(), syncPath);
      const started = Date.now();
      const names = async () =>
        stale.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
      await eventually(() => stale.events.some((e) => e.type === 'BOOKMARK'), {
        description: 'the stale sync ended with its bookmark',
      });
      expect(await names()).not.toContain('after-first-sync');
      await eventually(async () => (await names()).includes('after-first-sync'), {
        timeoutMs: 10_000,
        description: 'what changed since the stale sync arrived',
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(750);
      stale.close();
      // Served stale once: the relist after it (say after a 410) is fresh, or it would never catch up.
      const relist = await openWatch(lagging.kubeConfig(), syncPath);
      await eventually(() => relist.events.some((e) => e.type === 'BOOKMARK'), {
        description: 'the relist ended with its bookmark',
      });
      expect(
        relist.events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name),
      ).toContain('after-first-sync');
      relist.close();
    } finally {
      await lagging.sever();
    }
  });

  it('forwards the election Lease unnumbered and undecided, and cuts only it once told to', async () => {
    const counters = { requests: 0, writes: 0 };
    const decided: string[] = [];
    const proxy = await FaultProxy.start(env.kubeConfig, counters, {
      decide: (request) => {
        decided.push(`${request.verb} ${request.resource}`);
        return { action: 'forward' };
      },
      electionLease: 'default/the-lease',
    });
    const leases = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'the-lease', namespace: 'default' },
      spec: { holderIdentity: 'replica-1' },
    };
    try {
      const config = proxy.kubeConfig();
      expect((await kubeRequest(config, 'POST', leases, lease)).status).toBe(201);
      expect((await kubeRequest(config, 'GET', `${leases}/the-lease`)).status).toBe(200);
      expect(counters).toEqual({ requests: 0, writes: 0 });
      expect(decided).toEqual([]);
      await kubeRequest(config, 'POST', configMapsPath, configMap('beside-the-lease'));
      expect(counters).toEqual({ requests: 1, writes: 1 });
      proxy.cutElectionLease();
      await expect(kubeRequest(config, 'GET', `${leases}/the-lease`)).rejects.toThrow();
      expect((await kubeRequest(config, 'GET', `${configMapsPath}/beside-the-lease`)).status).toBe(
        200,
      );
      expect(decided).toEqual(['create configmaps', 'get configmaps']);
    } finally {
      await proxy.sever();
    }
  });
});
