import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubernetesObject } from '@ops/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../client/client.js';
import { type LocalApiServer, startLocalApiServer } from '../client/local-api-server.fixture.js';
import { widgetConversion } from '../crd/test-widget.js';
import type { Manager } from '../manager/manager.js';
import { validatingWebhook } from '../webhook/validating-webhook.js';
import { defineWebhook } from '../webhook/webhook-declaration.js';
import type { OperatorDefinition } from './operator-definition.js';
import { type OperatorIo, runOperator } from './run-operator.js';

let server: LocalApiServer;
let admin: Client;
let work: string;

beforeAll(async () => {
  server = await startLocalApiServer({ https: true });
  admin = new Client({ kubeConfig: server.kubeConfig });
  work = await mkdtemp(join(tmpdir(), 'ops-run-operator-'));
}, 30_000);

afterAll(async () => {
  admin?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

/** Runs the operator in-process with `argv` and an empty environment, capturing its output. */
function start(definition: OperatorDefinition, argv: string[], io: Partial<OperatorIo> = {}) {
  const output = { stdout: '', stderr: '' };
  const stop = new AbortController();
  const exited = runOperator(definition, {
    argv,
    env: {},
    stdout: (text) => {
      output.stdout += text;
    },
    stderr: (text) => {
      output.stderr += text;
    },
    signal: stop.signal,
    podNamespace: () => undefined,
    ...io,
  });
  return { output, stop: () => stop.abort(), exited };
}

const noServers = ['--metrics-bind-address=0', '--health-probe-bind-address=0'];

/** The arguments of a run whose webhook server finds no certificate in `certDir`. */
const withoutCertificate = (certDir: string) => [
  '--kubeconfig',
  server.kubeconfigPath,
  '--webhook-port=0',
  '--webhook-cert-dir',
  certDir,
  ...noServers,
];

/** A validating webhook refusing ConfigMaps labelled `forbidden`. */
const denyForbidden = defineWebhook({
  type: 'validating',
  name: 'vconfigmap.demo.example.com',
  path: '/validate-v1-configmap',
  rules: [
    { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
  ],
  handler: validatingWebhook<KubernetesObject>((object) =>
    object.metadata?.labels?.forbidden
      ? [{ field: 'metadata.labels', message: 'forbidden label' }]
      : [],
  ),
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('runOperator', () => {
  const demo: OperatorDefinition = { name: 'demo-operator', leaderElectionId: 'demo.example.com' };

  it('prints the usage for --help and resolves 0 without connecting anywhere', async () => {
    const run = start(demo, ['--help']);
    expect(await run.exited).toBe(0);
    expect(run.output.stdout).toMatch(/^Usage: demo-operator \[options\]\n/);
    expect(run.output.stderr).toBe('');
  });

  it('refuses a bad flag with a message naming it, and resolves 1', async () => {
    for (const [argv, message] of [
      [['--no-such-flag'], "Unknown option '--no-such-flag'"],
      [['--webhook-port=x'], '--webhook-port must be a port number from 0 to 65535, got "x"'],
      [
        ['--log-level=loud'],
        '--log-level must be one of trace, debug, info, warn, error, fatal, silent, got "loud"',
      ],
    ] as const) {
      const run = start(demo, [...argv]);
      expect(await run.exited).toBe(1);
      expect(run.output.stdout).toBe('');
      expect(run.output.stderr).toBe(
        `demo-operator: ${message}\n\nRun with --help for the options.\n`,
      );
    }
  });

  it('runs the controllers the definition adds until the signal, logging as the operator, and resolves 0', async () => {
    let manager: Manager | undefined;
    let setups = 0;
    let contextLevel = '';
    const run = start(
      {
        ...demo,
        setup: (added, context) => {
          setups++;
          manager = added;
          contextLevel = context.flags.logLevel;
        },
      },
      [
        '--kubeconfig',
        server.kubeconfigPath,
        '--disable-webhooks',
        '--log-level=debug',
        ...noServers,
      ],
    );
    await until(() => manager?.isLeader() === true, 'the manager to run');
    run.stop();
    expect(await run.exited).toBe(0);
    expect(setups).toBe(1);
    expect(contextLevel).toBe('debug');
    const logs = run.output.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logs.find((line) => line.msg === 'starting the demo-operator')).toMatchObject({
      operator: 'demo-operator',
      webhooks: false,
    });
    expect(logs.at(-1)).toMatchObject({ msg: 'manager stopped', operator: 'demo-operator' });
    expect(run.output.stderr).toBe('');
  });

  it('holds the leader-election Lease as --leader-election-identity, and hands --sharding to setup', async () => {
    let manager: Manager | undefined;
    let sharding: boolean | undefined;
    const run = start(
      {
        ...demo,
        leaderElectionId: 'identity-demo.example.com',
        setup: (added, context) => {
          manager = added;
          sharding = context.flags.sharding;
        },
      },
      [
        '--kubeconfig',
        server.kubeconfigPath,
        '--leader-elect',
        '--leader-election-namespace=default',
        '--leader-election-identity=demo-pod-0',
        '--sharding',
        ...noServers,
      ],
    );
    await until(() => manager?.isLeader() === true, 'the manager to lead');
    const lease = await admin.get<KubernetesObject & { spec?: { holderIdentity?: string } }>({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { namespace: 'default', name: 'identity-demo.example.com' },
    });
    run.stop();
    expect(await run.exited).toBe(0);
    expect(lease.spec?.holderIdentity).toBe('demo-pod-0');
    expect(sharding).toBe(true);
  });

  it('logs one text line an entry on a terminal, and JSON with --log-format=json', async () => {
    for (const [argv, expected] of [
      [[], /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: starting the demo-operator \{"webhooks":false\}$/m],
      [
        ['--log-format=json'],
        /^\{"level":30,.*"operator":"demo-operator".*"msg":"starting the demo-operator"\}$/m,
      ],
    ] as const) {
      let manager: Manager | undefined;
      const run = start(
        {
          ...demo,
          setup: (added) => {
            manager = added;
          },
        },
        ['--kubeconfig', server.kubeconfigPath, ...noServers, ...argv],
        { stdoutIsTTY: true, env: { NO_COLOR: '1' } },
      );
      await until(() => manager?.isLeader() === true, 'the manager to run');
      run.stop();
      expect(await run.exited).toBe(0);
      expect(run.output.stdout).toMatch(expected);
    }
  });

  it('starts no webhook server when the operator declares no webhook', async () => {
    // The webhook port is taken and there is no certificate: a server would fail on both.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    let manager: Manager | undefined;
    const run = start(
      {
        ...demo,
        setup: (added) => {
          manager = added;
        },
      },
      [
        '--kubeconfig',
        server.kubeconfigPath,
        `--webhook-port=${port}`,
        `--webhook-cert-dir=${join(work, 'missing')}`,
        ...noServers,
      ],
    );
    try {
      await until(() => manager?.isLeader() === true, 'the manager to run');
      run.stop();
      expect(await run.exited).toBe(0);
    } finally {
      taken.close();
    }
    const started = run.output.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.msg === 'starting the demo-operator');
    expect(started).toMatchObject({ webhooks: false });
    expect(started).not.toHaveProperty('webhookCertMode');
    expect(run.output.stderr).toBe('');
  });

  it('says how to get a certificate, or to run with --disable-webhooks, when declared webhooks have none', async () => {
    const certDir = join(work, 'missing');
    const run = start({ ...demo, webhooks: [denyForbidden] }, withoutCertificate(certDir));
    expect(await run.exited).toBe(1);
    expect(run.output.stderr).toBe(
      `demo-operator: no webhook serving certificate in ${certDir} (tls.crt and tls.key), and the operator declares webhooks (vconfigmap.demo.example.com), served over HTTPS. ` +
        'Locally, `ops-operator run` makes a CA and serving certificate and passes --webhook-cert-dir (or point --webhook-cert-dir at a directory holding tls.crt and tls.key); ' +
        'in a cluster, mount the Secret cert-manager issues there (config/certmanager), make it with `ops-operator webhook-certs` without cert-manager, or run with --webhook-cert-mode=self-managed. ' +
        'Or run without the webhooks: --disable-webhooks (ENABLE_WEBHOOKS=false).\n',
    );
    // ...and so it runs.
    let manager: Manager | undefined;
    const disabled = start(
      {
        ...demo,
        webhooks: [denyForbidden],
        setup: (added) => {
          manager = added;
        },
      },
      ['--kubeconfig', server.kubeconfigPath, '--webhook-cert-dir', certDir, ...noServers],
      { env: { ENABLE_WEBHOOKS: 'false' } },
    );
    await until(() => manager?.isLeader() === true, 'the manager to run');
    disabled.stop();
    expect(await disabled.exited).toBe(0);
    expect(disabled.output.stderr).toBe('');
  });

  it('starts the webhook server for conversions alone, and names them when it has no certificate', async () => {
    const certDir = join(work, 'missing');
    const run = start({ ...demo, conversions: [widgetConversion] }, withoutCertificate(certDir));
    expect(await run.exited).toBe(1);
    expect(run.output.stderr).toContain(
      `demo-operator: no webhook serving certificate in ${certDir} (tls.crt and tls.key), and the operator declares webhooks (the conversion of widgets.example.com), served over HTTPS.`,
    );
  });

  it('refuses conversions not made by defineConversion, or one kind listed twice', async () => {
    const cases: Array<[unknown[], string]> = [
      [
        [{}],
        'conversions[0] is not a conversion declaration: make it with defineConversion from @ops/core/crd',
      ],
      [
        [widgetConversion, widgetConversion],
        "conversions lists the conversion of widgets.example.com twice: list each kind's conversion once",
      ],
    ];
    for (const [conversions, message] of cases) {
      const run = start({ ...demo, conversions: conversions as (typeof widgetConversion)[] }, [
        '--kubeconfig',
        server.kubeconfigPath,
        ...noServers,
      ]);
      expect(await run.exited).toBe(1);
      expect(run.output.stderr).toBe(`demo-operator: ${message}\n`);
    }
  });

  it('asks for --webhook-cert-namespace in self-managed mode outside a Pod', async () => {
    const run = start({ ...demo, webhooks: [denyForbidden] }, [
      '--kubeconfig',
      server.kubeconfigPath,
      '--webhook-cert-mode=self-managed',
      ...noServers,
    ]);
    expect(await run.exited).toBe(1);
    expect(run.output.stderr).toBe(
      'demo-operator: --webhook-cert-mode=self-managed needs the namespace of its Secret and webhook Service: set --webhook-cert-namespace (or WEBHOOK_CERT_NAMESPACE) when not running in a Pod\n\nRun with --help for the options.\n',
    );
  });

  it('serves declared webhooks with a certificate it made itself (self-managed), called by the API server', async () => {
    const namespace = 'demo-system';
    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    const port = await freePort();
    await admin.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'demo-operator-webhook-service', namespace },
      spec: { ports: [{ port: 443, targetPort: port }] },
    } as KubernetesObject);
    await admin.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: 'demo-operator-webhook-service', namespace },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port }] }],
    } as KubernetesObject);
    await admin.create({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'demo-operator-validating-webhook-configuration' },
      webhooks: [
        {
          name: denyForbidden.name,
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          failurePolicy: 'Fail',
          clientConfig: {
            service: { name: 'demo-operator-webhook-service', namespace, path: denyForbidden.path },
          },
          rules: denyForbidden.rules,
          namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'default' } },
        },
      ],
    } as KubernetesObject);
    const run = start(
      { ...demo, webhooks: [denyForbidden] },
      [
        '--kubeconfig',
        server.kubeconfigPath,
        '--webhook-cert-mode=self-managed',
        `--webhook-port=${port}`,
        `--webhook-cert-dir=${join(work, 'self-managed')}`,
        ...noServers,
      ],
      { env: { WEBHOOK_CERT_NAMESPACE: namespace } },
    );
    try {
      const configMap = (name: string, labels: Record<string, string>) =>
        ({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name, namespace: 'default', labels },
        }) as KubernetesObject;
      // Until the server listens the call fails; then the API server trusts the operator's CA.
      await until(async () => {
        try {
          await admin.create(configMap(`probe-${Date.now()}`, {}));
          return true;
        } catch {
          return false;
        }
      }, 'the webhook to be called');
      await expect(admin.create(configMap('bad', { forbidden: 'yes' }))).rejects.toThrow(
        'admission webhook "vconfigmap.demo.example.com" denied the request',
      );
      const secret = await admin.get<KubernetesObject & { data: Record<string, string> }>({
        apiVersion: 'v1',
        kind: 'Secret',
        namespace,
        name: 'demo-operator-webhook-server-cert',
      });
      expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
    } finally {
      run.stop();
    }
    expect(await run.exited).toBe(0);
    expect(run.output.stderr).toBe('');
  }, 30_000);
});
