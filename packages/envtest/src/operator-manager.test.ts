import { KubeConfig } from '@kubernetes/client-node';
import { Client, type KubernetesObject, Manager, objectKind } from '@ops/core';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Environment } from './environment.js';
import { eventually } from './eventually.js';
import {
  type OperatorManagerLike,
  type OperatorManagerSettings,
  startOperatorManager,
} from './operator-manager.js';

const nowhere = new KubeConfig();
nowhere.loadFromClusterAndUser(
  { name: 'none', server: 'https://127.0.0.1:1', skipTLSVerify: false },
  { name: 'none' },
);

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

/** startOperatorManager of `fake`, as nobody, with an empty setup and `options`. */
const startFake = (
  fake: OperatorManagerLike,
  options: { timeoutMs?: number; setup?: () => void } = {},
) =>
  startOperatorManager({
    identity: { kubeConfig: nowhere },
    createManager: () => fake,
    setup: options.setup ?? (() => undefined),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });

/** A manager that leads after `leadAfterMs`, or whose start fails with `fail`. */
function fakeManager(behaviour: { leadAfterMs?: number; fail?: Error }) {
  let leading = false;
  const fake = {
    settings: undefined as OperatorManagerSettings | undefined,
    stopped: false,
    isLeader: () => leading,
    start: (signal: AbortSignal) =>
      new Promise<void>((resolve, reject) => {
        if (behaviour.fail) {
          reject(behaviour.fail);
          return;
        }
        if (behaviour.leadAfterMs !== undefined)
          setTimeout(() => {
            leading = true;
          }, behaviour.leadAfterMs);
        signal.addEventListener('abort', () => {
          leading = false;
          fake.stopped = true;
          resolve();
        });
      }),
  };
  return fake;
}

describe('startOperatorManager', () => {
  it('builds the manager as the identity without ports, runs setup first, and resolves once it leads', async () => {
    const fake = fakeManager({ leadAfterMs: 30 });
    const order: string[] = [];
    const running = await startOperatorManager({
      identity: { kubeConfig: nowhere },
      createManager: (settings) => {
        fake.settings = settings;
        order.push('create');
        return fake;
      },
      setup: async (manager: OperatorManagerLike) => {
        expect(manager).toBe(fake);
        expect(manager.isLeader()).toBe(false);
        order.push('setup');
      },
    });
    expect(order).toEqual(['create', 'setup']);
    expect(running.manager.isLeader()).toBe(true);
    expect(fake.settings?.kubeConfig).toBe(nowhere);
    expect(fake.settings?.metricsBindAddress).toBe(false);
    expect(fake.settings?.healthProbeBindAddress).toBe(false);
    await running.stop();
    await running.stop();
    expect(fake.stopped).toBe(true);
  });

  it('records writes only, into the array it is given', async () => {
    const fake = fakeManager({ leadAfterMs: 0 });
    const writes = ['earlier start'];
    const running = await startOperatorManager({
      identity: { kubeConfig: nowhere },
      createManager: (settings) => {
        fake.settings = settings;
        return fake;
      },
      setup: () => undefined,
      writes,
    });
    type Request = Parameters<OperatorManagerSettings['onRequest']>;
    const info = {} as Request[2];
    const verbs: Request[0][] = ['get', 'list', 'create', 'update', 'patch', 'delete'];
    for (const verb of verbs) {
      fake.settings?.onRequest(verb, 'configmaps', info);
    }
    expect(running.writes).toBe(writes);
    expect(writes).toEqual([
      'earlier start',
      'create configmaps',
      'update configmaps',
      'patch configmaps',
      'delete configmaps',
    ]);
    await running.stop();
  });

  it('fails with the manager error when start fails before it leads', async () => {
    const cause = new Error('caches did not sync');
    const started = startFake(fakeManager({ fail: cause }));
    await expect(started).rejects.toThrow(
      "the operator's manager failed to start: caches did not sync",
    );
    await expect(started).rejects.toHaveProperty('cause', cause);
  });

  it('stops a manager that does not lead in time and says so', async () => {
    const fake = fakeManager({});
    await expect(startFake(fake, { timeoutMs: 50 })).rejects.toThrow(
      "the operator's manager did not lead within 50 ms: its caches did not sync or its controllers did not start (raise timeoutMs on a slow control plane)",
    );
    expect(fake.stopped).toBe(true);
  });

  it('refuses a timeout that is not a positive number, and passes on what setup throws', async () => {
    const fake = fakeManager({ leadAfterMs: 0 });
    await expect(startFake(fake, { timeoutMs: 0 })).rejects.toThrow(
      'startOperatorManager: timeoutMs must be a positive number of milliseconds, got 0',
    );
    const setup = () => {
      throw new Error('no such controller');
    };
    await expect(startFake(fake, { setup })).rejects.toThrow('no such controller');
    expect(fake.stopped).toBe(false);
  });

  it("runs a real Manager as a ServiceAccount under its RBAC and counts the operator's writes", async () => {
    const env = await Environment.start({ apiServer: { rbac: true } });
    try {
      const identity = await env.serviceAccount({
        namespace: 'demo-system',
        name: 'demo-manager',
        rbac,
      });
      const configMaps = objectKind<KubernetesObject>('v1', 'ConfigMap');
      const running = await startOperatorManager({
        identity,
        createManager: (settings) =>
          new Manager({ ...settings, logger: pino({ level: 'silent' }) }),
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
      });
      const admin = new Client({ kubeConfig: env.kubeConfig });
      try {
        await admin.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'watched', namespace: 'default' },
        });
        await eventually(async () => {
          const found = await admin.get(configMaps, 'watched', 'default');
          return found.metadata?.labels?.seen === 'yes';
        });
        expect(running.writes).toContain('patch configmaps');
        expect(running.writes.every((write) => write === 'patch configmaps')).toBe(true);
      } finally {
        admin.close();
        await running.stop();
      }
      expect(running.manager.isLeader()).toBe(false);
    } finally {
      await env.stop();
    }
  });
});
