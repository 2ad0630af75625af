import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

// WatchList (streaming lists, KEP-3157) as kube-apiserver 1.37 serves it: which watches start
// with the current state as ADDED events, and when the annotated bookmark ends them.
let cluster: TestCluster;
const collection = '/api/v1/namespaces/watch-list/configmaps';
let created: string;

beforeAll(async () => {
  cluster = await startCluster();
  await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'watch-list' } });
  for (const name of ['a', 'b'])
    created = (await cluster.request('POST', collection, { metadata: { name } })).body.metadata
      .resourceVersion;
  await cluster.request(
    'PATCH',
    `${collection}/a`,
    { data: { v: '2' } },
    {
      contentType: 'application/merge-patch+json',
    },
  );
});
afterAll(async () => {
  await cluster?.stop();
});

/** The events of a watch of `query` that ends after a second. */
async function events(query: string): Promise<Array<{ type: string; object: any }>> {
  const stream = await cluster.watch(`${collection}?watch=true&timeoutSeconds=1&${query}`);
  await stream.ended;
  return stream.events as Array<{ type: string; object: any }>;
}

const names = (list: Array<{ type: string; object: any }>) =>
  list.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`.trim());

const isEnd = (e: { type: string; object: any }) =>
  e.type === 'BOOKMARK' && e.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true';

describe('WatchList', () => {
  it('sends the current state as ADDED, then the BOOKMARK annotated k8s.io/initial-events-end', async () => {
    const list = await events(
      'sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
    const end = list.findIndex(isEnd);
    expect(names(list.slice(0, end)).sort()).toEqual(['ADDED a', 'ADDED b']);
    const bookmark = list[end]?.object;
    expect(bookmark).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1' });
    // The state's resourceVersion: at least that of every object sent.
    const newest = Math.max(
      ...list.slice(0, end).map((e) => Number(e.object.metadata.resourceVersion)),
    );
    expect(Number(bookmark.metadata.resourceVersion)).toBeGreaterThanOrEqual(newest);
    // a's ADDED is its current version, not its creation.
    expect(list.find((e) => e.object.metadata.name === 'a')?.object.data).toEqual({ v: '2' });
  });

  it('sends the current state, not the events since, for a resourceVersion with sendInitialEvents=true', async () => {
    const list = await events(
      `sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${created}`,
    );
    const end = list.findIndex(isEnd);
    expect(names(list.slice(0, end)).sort()).toEqual(['ADDED a', 'ADDED b']);
  });

  it('ends a plain watch from no resourceVersion, or from 0, with the annotated bookmark when bookmarks are allowed', async () => {
    for (const from of ['', 'resourceVersion=0&']) {
      const list = await events(`${from}allowWatchBookmarks=true`);
      const end = list.findIndex(isEnd);
      expect(names(list.slice(0, end)).sort()).toEqual(['ADDED a', 'ADDED b']);
    }
  });

  it('sends no bookmark without allowWatchBookmarks, and nothing initial for sendInitialEvents=false', async () => {
    const noBookmarks = await events('sendInitialEvents=true&resourceVersionMatch=NotOlderThan');
    expect(names(noBookmarks).sort()).toEqual(['ADDED a', 'ADDED b']);
    const fromNow = await events(
      'sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
    );
    expect(fromNow.filter((e) => e.type !== 'BOOKMARK')).toEqual([]);
    expect(fromNow.some(isEnd)).toBe(false);
  });

  it('refuses sendInitialEvents without resourceVersionMatch=NotOlderThan (422)', async () => {
    const answer = await cluster.request(
      'GET',
      `${collection}?watch=true&sendInitialEvents=true&resourceVersionMatch=Exact`,
    );
    expect(answer.status).toBe(422);
    expect(answer.body.message).toContain(
      'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    );
  });
});
