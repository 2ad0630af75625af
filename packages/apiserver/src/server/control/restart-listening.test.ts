import { afterEach, describe, expect, it } from 'vitest';
import { ApiServer } from '../api-server.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const collection = '/api/v1/namespaces/default/configmaps';

/** A request to `target` as its admin, with a JSON body when given. */
const caller =
  (target: ApiServer) =>
  (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${target.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${target.adminToken}`, 'content-type': 'application/json' },
    });

describe('ApiServer.restartListening', () => {
  it('refuses connections while down, then serves the kept store at the same URL and token, history lost', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    server = target;
    const call = caller(target);
    await call(collection, {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'kept' } }),
    });
    const before = (await (await call(collection)).json()) as {
      metadata: { resourceVersion: string };
    };
    await call(collection, {
      method: 'POST',
      body: JSON.stringify({ metadata: { name: 'later' } }),
    });
    const url = target.url;

    const restarting = target.restartListening({ downtimeMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await call(collection).then(
      () => 'answered',
      (error: Error & { cause?: { code?: string } }) => error.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
    await restarting;

    expect(target.url).toBe(url);
    const after = (await (await call(collection)).json()) as {
      items: { metadata: { name: string } }[];
    };
    expect(after.items.map((item) => item.metadata.name)).toEqual(['kept', 'later']);
    const resumed = await call(
      `${collection}?watch=true&resourceVersion=${before.metadata.resourceVersion}`,
    );
    expect(JSON.parse((await resumed.text()).trim())).toMatchObject({
      type: 'ERROR',
      object: { code: 410, reason: 'Expired' },
    });
  });

  it('with resetStore comes back as over a wiped etcd: objects and CRDs gone, versions from 1', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    server = target;
    const call = caller(target);
    for (let i = 0; i < 20; i++)
      await call(collection, {
        method: 'POST',
        body: JSON.stringify({ metadata: { name: `cm-${i}` } }),
      });
    const before = (await (await call(collection)).json()) as {
      metadata: { resourceVersion: string };
    };
    await target.restartListening({ resetStore: true, downtimeMs: 200 });

    const after = (await (await call(collection)).json()) as {
      items: unknown[];
      metadata: { resourceVersion: string };
    };
    expect(after.items).toEqual([]);
    expect(Number(after.metadata.resourceVersion)).toBeLessThan(
      Number(before.metadata.resourceVersion),
    );
    expect((await call('/api/v1/namespaces/kube-system')).status).toBe(200);
    // A client resuming from the old store's version learns it must relist.
    const resumed = await call(
      `${collection}?watch=true&resourceVersion=${before.metadata.resourceVersion}`,
    );
    expect(JSON.parse((await resumed.text()).trim())).toMatchObject({
      type: 'ERROR',
      object: {
        code: 504,
        message: `Too large resource version: ${before.metadata.resourceVersion}, current: ${after.metadata.resourceVersion}`,
      },
    });
  });

  it('says the server is not running when it was stopped', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    await target.stop();
    await expect(target.restartListening()).rejects.toThrow(
      'the API server is not listening on a TCP port; start it first',
    );
  });
});

describe('POST /__ops/restart-listening', () => {
  it('answers 202, goes away for downtimeMs, and comes back at the same address', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    server = target;
    const post = (body: unknown) =>
      fetch(`${target.url}/__ops/restart-listening`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${target.adminToken}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const bad = await post({ downtimeMs: 'soon' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe(
      'downtimeMs: Invalid value: "soon": send {"downtimeMs": <0 to 60000>}',
    );
    const accepted = await post({ downtimeMs: 400 });
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ restarting: true, downtimeMs: 400, resetStore: false });
    await new Promise((resolve) => setTimeout(resolve, 150));
    await expect(fetch(`${target.url}/readyz`)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await fetch(`${target.url}/readyz`)).status).toBe(200);
  });
});
