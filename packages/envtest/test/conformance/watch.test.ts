import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
  await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'w' } });
});
afterAll(async () => {
  await cluster.stop();
});

const create = (name: string, labels: Record<string, string> = {}) =>
  cluster.request('POST', '/api/v1/namespaces/w/configmaps', {
    metadata: { name, labels },
    data: { v: '1' },
  });
const currentVersion = async () =>
  (await cluster.request('GET', '/api/v1/namespaces/w/configmaps')).body.metadata
    .resourceVersion as string;

describe('watch', () => {
  it('starts with ADDED for what exists, then streams MODIFIED and DELETED in order', async () => {
    await create('pre-existing');
    const stream = await cluster.watch('/api/v1/namespaces/w/configmaps?watch=true');
    expect((await stream.next())[0]).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'pre-existing' } },
    });
    await create('new-one');
    await cluster.request(
      'PATCH',
      '/api/v1/namespaces/w/configmaps/new-one',
      { data: { v: '2' } },
      { contentType: 'application/merge-patch+json' },
    );
    await cluster.request('DELETE', '/api/v1/namespaces/w/configmaps/new-one');
    const events = await stream.next(3);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(events[1]?.object.data.v).toBe('2');
    const versions = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    stream.close();
  });

  it('resumes from a resourceVersion without replaying older events', async () => {
    const first = (await create('resume-a')).body;
    await create('resume-b');
    const stream = await cluster.watch(
      `/api/v1/namespaces/w/configmaps?watch=1&resourceVersion=${first.metadata.resourceVersion}`,
    );
    expect((await stream.next())[0]).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'resume-b' } },
    });
    stream.close();
  });

  it('turns label-selector transitions into ADDED and DELETED', async () => {
    const stream = await cluster.watch(
      `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${await currentVersion()}&labelSelector=app%3Dweb`,
    );
    await create('moving');
    await cluster.request(
      'PATCH',
      '/api/v1/namespaces/w/configmaps/moving',
      { metadata: { labels: { app: 'web' } } },
      { contentType: 'application/merge-patch+json' },
    );
    await cluster.request(
      'PATCH',
      '/api/v1/namespaces/w/configmaps/moving',
      { metadata: { labels: { app: 'db' } } },
      { contentType: 'application/merge-patch+json' },
    );
    expect((await stream.next(2)).map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    stream.close();
  });

  it('watches one object by name', async () => {
    const stream = await cluster.watch(
      `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${await currentVersion()}&fieldSelector=metadata.name%3Donly-me`,
    );
    await create('not-me');
    await create('only-me');
    expect((await stream.next())[0]?.object.metadata.name).toBe('only-me');
    stream.close();
  });

  it('ends at timeoutSeconds', async () => {
    const stream = await cluster.watch(
      `/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${await currentVersion()}&timeoutSeconds=1`,
    );
    await stream.ended;
    expect(stream.events.filter((e) => e.type !== 'BOOKMARK')).toEqual([]);
  });

  it('fans one change out to 50 watchers', async () => {
    const version = await currentVersion();
    const streams = await Promise.all(
      Array.from({ length: 50 }, () =>
        cluster.watch(`/api/v1/namespaces/w/configmaps?watch=true&resourceVersion=${version}`),
      ),
    );
    await create('fan-out');
    for (const stream of streams) {
      expect((await stream.next())[0]?.object.metadata.name).toBe('fan-out');
      stream.close();
    }
  });
});
