import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

// What only the local API server can be made to do: short bookmark intervals, a tiny watch
// history, dropped watches and restarts.
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster({ controlPlane: 'local', apiServer: { bookmarkIntervalMs: 100 } });
});
afterAll(async () => {
  await cluster.stop();
});

const server = () => {
  const local = cluster.env.server;
  if (local === undefined) throw new Error('these tests need the local API server');
  return local;
};
const create = (name: string) =>
  cluster.request('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name } });

describe('watch history and faults (local server)', () => {
  it('sends bookmarks with the current resourceVersion when asked', async () => {
    const version = (await cluster.request('GET', '/api/v1/namespaces/default/configmaps')).body
      .metadata.resourceVersion;
    const stream = await cluster.watch(
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${version}&allowWatchBookmarks=true&timeoutSeconds=1`,
    );
    await stream.ended;
    const bookmarks = stream.events.filter((e) => e.type === 'BOOKMARK');
    expect(bookmarks.length).toBeGreaterThan(2);
    expect(bookmarks[0]?.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    expect(Number(bookmarks.at(-1)?.object.metadata.resourceVersion)).toBeGreaterThan(0);
  });

  it('answers a resourceVersion older than the history with a 410 ERROR event', async () => {
    server().store.setHistorySize(2);
    for (let i = 0; i < 5; i++) await create(`churn-${i}`);
    const stream = await cluster.watch(
      '/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=2',
    );
    await stream.ended;
    expect(stream.events).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: expect.stringMatching(/^too old resource version: 2 \(\d+\)$/),
        }),
      },
    ]);
    server().store.setHistorySize(10_000);
  });

  it('cuts watches on dropWatches, and a restart without history makes old versions 410', async () => {
    const version = (await cluster.request('GET', '/api/v1/namespaces/default/configmaps')).body
      .metadata.resourceVersion;
    const stream = await cluster.watch(
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${version}`,
    );
    expect(server().dropWatches()).toBeGreaterThan(0);
    await stream.ended;
    await create('after-drop');
    server().restart({ keepHistory: false });
    const resumed = await cluster.watch(
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${version}`,
    );
    await resumed.ended;
    expect(resumed.events[0]?.object.code).toBe(410);
    const relisted = await cluster.request('GET', '/api/v1/namespaces/default/configmaps');
    expect(
      relisted.body.items.map((i: { metadata: { name: string } }) => i.metadata.name),
    ).toContain('after-drop');
  });
});
