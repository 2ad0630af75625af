import { afterEach, describe, expect, it } from 'vitest';
import { ApiServer } from './api-server.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('ApiServer.restartListening', () => {
  it('refuses connections while down, then serves the kept store at the same URL and token, history lost', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    server = target;
    const call = (path: string, init: RequestInit = {}) =>
      fetch(`${target.url}${path}`, {
        ...init,
        headers: {
          authorization: `Bearer ${target.adminToken}`,
          'content-type': 'application/json',
        },
      });
    const collection = '/api/v1/namespaces/default/configmaps';
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

  it('says the server is not running when it was stopped', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    await target.stop();
    await expect(target.restartListening()).rejects.toThrow(
      'the API server is not listening on a TCP port; start it first',
    );
  });
});
