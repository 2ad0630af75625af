import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../src/client/client.js';
import {
  type LocalApiServer,
  startLocalApiServer,
} from '../src/client/local-api-server.fixture.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
let server: LocalApiServer;
beforeAll(async () => {
  server = await startLocalApiServer();
});
afterAll(async () => {
  await server.stop();
});

const eventually = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe('the README walkthrough', () => {
  it('is shown verbatim in the README', () => {
    expect(read('../README.md')).toContain(read('../examples/settings-copier.ts').trim());
  });

  it('runs against the local API server: copies, follows changes, and stops on SIGTERM', async () => {
    const admin = new Client({ kubeConfig: server.kubeConfig });
    await admin.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'shared-settings', namespace: 'default' },
      data: { color: 'blue' },
    });
    await admin.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a', labels: { 'copy-settings': 'true' } },
    });
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } });
    const previous = process.env.KUBECONFIG;
    process.env.KUBECONFIG = server.kubeconfigPath;
    const running = import('../examples/settings-copier.js');
    const copy = (ns: string) =>
      admin.get<KubernetesObject & { data?: Record<string, string> }>(
        'v1',
        'ConfigMap',
        'shared-settings',
        ns,
      );
    try {
      await eventually(async () => (await copy('team-a')).data?.color === 'blue');
      await admin.patch(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'shared-settings', namespace: 'default' },
        },
        { data: { color: 'green' } },
        'merge',
      );
      await eventually(async () => (await copy('team-a')).data?.color === 'green');
      await admin.patch(
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-b' } },
        { metadata: { labels: { 'copy-settings': 'true' } } },
        'merge',
      );
      await eventually(async () => (await copy('team-b')).data?.color === 'green');
    } finally {
      process.emit('SIGTERM', 'SIGTERM');
      await running;
      if (previous === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = previous;
    }
  });
});
