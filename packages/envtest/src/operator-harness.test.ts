import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type KubernetesObject, Manager, objectKind } from '@ops/core';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Environment } from './environment.js';
import { eventually } from './eventually.js';
import { OperatorHarness } from './operator-harness.js';

const configMaps = objectKind<KubernetesObject>('v1', 'ConfigMap');

/** A ClusterRole for ConfigMaps bound to the ServiceAccount demo-system/demo-manager. */
const rbac = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'demo' },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'patch'] },
    ],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'demo' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'demo' },
    subjects: [{ kind: 'ServiceAccount', name: 'demo-manager', namespace: 'demo-system' }],
  },
] as KubernetesObject[];

/** A harness on the local server whose operator labels every ConfigMap `seen=yes`. */
async function labellerHarness(): Promise<OperatorHarness<Manager>> {
  const env = await Environment.start({ apiServer: { rbac: true } });
  const identity = await env.serviceAccount({
    namespace: 'demo-system',
    name: 'demo-manager',
    rbac,
  });
  return new OperatorHarness(
    { env, identity, rendered: rbac },
    {
      createManager: (settings) => new Manager({ ...settings, logger: pino({ level: 'silent' }) }),
      setup: (manager) => {
        manager
          .controller('labeller')
          .for(configMaps)
          .complete(async ({ namespace, name }) => {
            const found = await manager.client.get(configMaps, name, namespace);
            if (found.metadata?.labels?.seen === 'yes') return;
            await manager.client.patch(found, { metadata: { labels: { seen: 'yes' } } }, 'merge');
          });
      },
    },
  );
}

describe('OperatorHarness', () => {
  it('runs the operator as its ServiceAccount across restarts with one record of writes, and kubectl as the admin', async () => {
    const harness = await labellerHarness();
    try {
      expect(harness.rendered).toBe(rbac);
      const manager = await harness.startOperator();
      expect(manager.isLeader()).toBe(true);
      await harness.admin.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'first', namespace: 'default' },
      });
      await eventually(
        async () =>
          (await harness.admin.get(configMaps, 'first', 'default')).metadata?.labels?.seen ===
          'yes',
      );
      await harness.settle(200);
      expect(harness.writes).toEqual(['patch configmaps']);

      await harness.stopOperator();
      expect(manager.isLeader()).toBe(false);
      // A second stop while none runs does nothing.
      await harness.stopOperator();
      expect(await harness.startOperator()).not.toBe(manager);
      await harness.kubectl(['create', 'configmap', 'second', '-n', 'default']);
      await eventually(
        async () =>
          (await harness.admin.get(configMaps, 'second', 'default')).metadata?.labels?.seen ===
          'yes',
      );
      await harness.settle(200);
      expect(harness.writes).toEqual(['patch configmaps', 'patch configmaps']);

      expect(
        await harness.kubectl(['get', 'configmap', 'second', '-n', 'default', '-o', 'name']),
      ).toBe('configmap/second\n');
      await expect(
        harness.kubectl(['get', 'configmap', 'absent', '-n', 'default']),
      ).rejects.toThrow(/^Error from server \(NotFound\): configmaps "absent" not found$/);
    } finally {
      await harness.stop();
    }
    await expect(harness.admin.get(configMaps, 'first', 'default')).rejects.toThrow();
  });

  it('serves a webhook server with its certificate until stop, and stop runs every step, rejecting with the first error it met', async () => {
    const harness = await labellerHarness();
    const calls: string[] = [];
    let certDir = '';
    try {
      const certificates = await harness.servingCertificates('operator-harness-test-');
      certDir = certificates.certDir;
      expect(await readFile(join(certDir, 'tls.crt'), 'utf8')).toContain('BEGIN CERTIFICATE');
      expect(await readFile(join(certDir, 'tls.key'), 'utf8')).toContain('PRIVATE KEY');
      expect(certificates.caCert).toContain('BEGIN CERTIFICATE');

      const portless = {
        port: undefined,
        start: async () => {
          calls.push('start portless');
        },
        stop: async () => {
          calls.push('stop portless');
        },
      };
      await expect(harness.serveWebhooks(portless, [], certificates.caCert)).rejects.toThrow(
        'the webhook server started without a port',
      );
      harness.onStop(async () => {
        calls.push('failing cleanup');
        throw new Error('the cleanup added first failed');
      });
      harness.onStop(async () => {
        calls.push('last cleanup');
        throw new Error('the cleanup added last failed');
      });
    } catch (error) {
      await harness.stop();
      throw error;
    }
    await expect(harness.stop()).rejects.toThrow('the cleanup added last failed');
    // Last added first; the server started is stopped, the certificates are removed.
    expect(calls).toEqual(['start portless', 'last cleanup', 'failing cleanup', 'stop portless']);
    await expect(access(certDir)).rejects.toThrow(/ENOENT/);
  });
});
