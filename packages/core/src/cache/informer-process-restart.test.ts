// An informer under a local API server whose process is stopped and started again, as a
// developer restarts `pnpm local-cluster --state-dir <dir>`: the same address and cluster
// identity (so the kubeconfig written before keeps working), an empty store. The informer
// sees its connections refused, relists with backoff once the server is back, and converges.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { KubeTransport } from '../transport/kube-transport.js';
import { Informer } from './informer.js';
import { configMaps, eventually } from './local-cluster.test-helper.js';

let server: LocalApiServer;
let stateDir: string;
let transport: KubeTransport;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'ops-core-state-'));
  server = await startLocalApiServer({ https: true, stateDir });
  transport = new KubeTransport(server.kubeConfig);
});

afterAll(async () => {
  transport?.close();
  await server?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

async function create(path: string, body: unknown): Promise<void> {
  const response = await transport.request({ method: 'POST', path, body });
  if (response.status >= 300) throw new Error(`POST ${path}: ${response.status} ${response.text}`);
}

it('relists after the API server process restarts with its state directory, over the same kubeconfig', async () => {
  await create('/api/v1/namespaces', { metadata: { name: 'before' } });
  await create('/api/v1/namespaces/before/configmaps', { metadata: { name: 'old' } });
  const informer = new Informer({
    transport,
    descriptor: configMaps,
    backoff: { initialMs: 50, maxMs: 500 },
  });
  informer.start();
  try {
    await informer.waitForSync(10_000);
    expect(informer.get('before', 'old')).toBeDefined();

    await server.restartProcess();
    // The kubeconfig loaded before the restart (CA, admin token) still works: same cluster.
    await create('/api/v1/namespaces', { metadata: { name: 'after' } });
    await create('/api/v1/namespaces/after/configmaps', { metadata: { name: 'new' } });

    await eventually(
      () =>
        informer.get('after', 'new') !== undefined && informer.get('before', 'old') === undefined,
      'the informer converges on the restarted server',
      15_000,
    );
    expect(informer.stats().errorRelists).toBeGreaterThanOrEqual(1);
  } finally {
    await informer.stop();
  }
}, 60_000);
