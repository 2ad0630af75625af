import { KubeConfig } from '@kubernetes/client-node';
import { ApiServer } from '@ops/apiserver';
import { afterEach, describe, expect, it } from 'vitest';
import { bareWatchVariant } from './bare-watch-variant.js';

let server: ApiServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const collection = '/api/v1/namespaces/default/configmaps';

async function call(target: ApiServer, method: string, path: string, body: unknown) {
  const response = await fetch(`${target.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${target.adminToken}`,
      'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json',
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}`);
}

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition() && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('bare watch (the event-burst floor)', () => {
  it('resumes from the last resourceVersion it read when the server ends its watch, so no update is missed', async () => {
    const target = await ApiServer.start({ https: false, cluster: false });
    server = target;
    for (const name of ['a', 'b']) await call(target, 'POST', collection, { metadata: { name } });
    const endpoint = {
      url: target.url,
      kubeconfigPath: '',
      kubeConfig: () => {
        const config = new KubeConfig();
        config.loadFromString(target.kubeconfig());
        return config;
      },
    };
    const updates: string[] = [];
    // The floor hands over the object as parsed, so it has its name; UpdatedObject names
    // only what every library's update carries.
    const cache = await bareWatchVariant.sync(endpoint, 'default', 2, 10_000, (object) => {
      const { metadata } = object as { metadata: { name: string; annotations?: { n?: string } } };
      updates.push(`${metadata.name}=${metadata.annotations?.n}`);
    });
    try {
      await call(target, 'PATCH', `${collection}/a`, { metadata: { annotations: { n: '1' } } });
      await until(() => updates.length === 1);
      // The server cuts every watch; the changes made meanwhile arrive on the resumed one.
      expect(target.dropWatches()).toBe(1);
      await call(target, 'PATCH', `${collection}/b`, { metadata: { annotations: { n: '2' } } });
      await call(target, 'PATCH', `${collection}/a`, { metadata: { annotations: { n: '3' } } });
      await until(() => updates.length === 3);
      expect(updates).toEqual(['a=1', 'b=2', 'a=3']);
      expect(cache.objects()).toBe(2);
    } finally {
      await cache.stop();
    }
  });
});
