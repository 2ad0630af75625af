// config/default-no-certmanager on either control plane (the local API server with RBAC
// enforced, or real etcd + kube-apiserver with OPS_ENVTEST_CONTROL_PLANE=binaries): two
// replicas of the operator, as its ServiceAccount with exactly the rendered (generated)
// rules and a token the API server issued, make their own webhook CA and certificate, and
// the API server calls the webhooks over TLS with the caBundle they injected; it keeps doing
// so across a forced CA rotation and the natural renewals of short-lived certificates, and
// no replica ever serves a certificate the webhook configuration does not trust. In a
// cluster the API server calls the webhook Service; here it calls the first replica by URL
// on the loopback address (the configurations otherwise as rendered), so the replicas add
// 127.0.0.1 to their certificates.
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { Client, type KubernetesObject, runOperator, type Secret, secrets } from '@ops/core';
import { Environment, eventually, type ServiceAccountIdentity } from '@ops/envtest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationResource } from '../src/api/v1/application.js';
import { applicationOperator } from '../src/operator.js';
import {
  freePort,
  type K8sObject,
  removeTemporaryDirectories,
  render,
  temporaryDirectory,
} from './tooling-support.js';

const namespace = 'application-operator-system';
const serviceAccount = 'application-operator-controller-manager';
const service = 'application-operator-webhook-service';
const secretName = 'application-operator-webhook-server-cert';
const validating = 'application-operator-validating-webhook-configuration';
const mutating = 'application-operator-mutating-webhook-configuration';
const serverName = `${service}.${namespace}.svc`;

let env: Environment;
let admin: Client;
let rendered: K8sObject[];
let operator: ServiceAccountIdentity;
/** The port of the first replica, which the webhook configurations name. */
let webhookPort: number;

beforeAll(async () => {
  env = await Environment.start({
    apiServer: { rbac: true },
    crds: [applicationResource.crd() as unknown as KubernetesObject],
  });
  admin = new Client({ kubeConfig: env.kubeConfig });
  rendered = render('config/default-no-certmanager');
  // Everything kustomize renders, as `kubectl apply -k` would create it, except what runs
  // here instead: the Deployment (the replicas are in this process), the CRD (installed
  // above) and the Services (nothing routes to them here); the RBAC and the webhook
  // configurations go through envtest's helpers below.
  const byHelpers = [
    'Deployment',
    'CustomResourceDefinition',
    'Service',
    'ClusterRole',
    'ClusterRoleBinding',
    'Role',
    'RoleBinding',
    'MutatingWebhookConfiguration',
    'ValidatingWebhookConfiguration',
  ];
  for (const object of rendered) {
    if (byHelpers.includes(object.kind)) continue;
    await admin.create(object as KubernetesObject);
  }
  operator = await env.serviceAccount({
    namespace,
    name: serviceAccount,
    rbac: rendered as KubernetesObject[],
  });
  // Without a CA: the replicas inject their own bundle, as they do in a cluster.
  webhookPort = await freePort();
  await env.installWebhooks(rendered as KubernetesObject[], { port: webhookPort });
}, 60_000);

afterAll(async () => {
  admin?.close();
  await env?.stop();
  await removeTemporaryDirectories();
});

interface Replica {
  port: number;
  output: string[];
  stop: () => void;
  exited: Promise<number>;
}

/**
 * Starts one replica as the Deployment would run it, as its ServiceAccount, in this process,
 * its webhook server on `port` (default: a free one).
 */
async function startReplica(kubeconfig: string, port?: number): Promise<Replica> {
  const deployment = rendered.find((object) => object.kind === 'Deployment');
  const args: string[] = deployment?.spec.template.spec.containers[0].args ?? [];
  expect(args).toContain('--webhook-cert-mode=self-managed');
  const webhookPort = port ?? (await freePort());
  const output: string[] = [];
  const stop = new AbortController();
  const exited = runOperator(
    {
      ...applicationOperator,
      // Short-lived, so that renewals and a CA rotation happen during the test; long enough
      // (X.509 times have whole seconds) that a busy machine renews well before expiry.
      selfManagedCertificates: {
        caLifetimeMs: 15_000,
        certificateLifetimeMs: 9_000,
        checkIntervalMs: 100,
        // The address in the webhook configurations' URL.
        extraHosts: ['127.0.0.1'],
      },
    },
    {
      argv: [
        ...args.filter((arg) => !arg.includes('bind-address')),
        '--metrics-bind-address=0',
        '--health-probe-bind-address=0',
        `--kubeconfig=${kubeconfig}`,
        `--leader-election-namespace=${namespace}`,
        `--webhook-port=${webhookPort}`,
        `--webhook-cert-dir=${join(await temporaryDirectory('replica'), 'serving-certs')}`,
        '--log-level=info',
      ],
      env: {},
      stdout: (line) => output.push(line),
      stderr: (line) => output.push(line),
      signal: stop.signal,
      // In a Pod this is read from the service account's namespace file.
      podNamespace: () => namespace,
    },
  );
  return { port: webhookPort, output, stop: () => stop.abort(), exited };
}

/** The certificate a replica serves to a client asking for the Service's name. */
function servedCertificate(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port, servername: serverName, rejectUnauthorized: false },
      () => {
        const der = socket.getPeerCertificate().raw;
        socket.end();
        resolve(new X509Certificate(der).toString());
      },
    );
    socket.once('error', reject);
  });
}

async function configurationBundles(): Promise<string[]> {
  const bundles: string[] = [];
  for (const [kind, name] of [
    ['ValidatingWebhookConfiguration', validating],
    ['MutatingWebhookConfiguration', mutating],
  ] as const) {
    const object = await admin.get<K8sObject & KubernetesObject>({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind,
      name,
    });
    for (const webhook of object.webhooks) {
      bundles.push(Buffer.from(webhook.clientConfig.caBundle ?? '', 'base64').toString('utf8'));
    }
  }
  return bundles;
}

/** Whether a CA of `bundle` signed `cert` and `cert` is valid now for the Service's name. */
function trusted(cert: string, bundle: string): boolean {
  const leaf = new X509Certificate(cert);
  const now = Date.now();
  const cas = bundle.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return (
    cas.some(
      (ca) =>
        leaf.checkIssued(new X509Certificate(ca)) && leaf.verify(new X509Certificate(ca).publicKey),
    ) &&
    Date.parse(leaf.validFrom) <= now &&
    now < Date.parse(leaf.validTo) &&
    leaf.checkHost(serverName) !== undefined
  );
}

async function secret(): Promise<Secret> {
  return admin.get(secrets, secretName, namespace);
}

describe('config/default-no-certmanager: webhook certificates made by the operator', () => {
  it('the API server calls the webhooks through them, across a forced rotation and renewals', async () => {
    const replicas = await Promise.all([
      startReplica(operator.kubeconfigPath, webhookPort),
      startReplica(operator.kubeconfigPath),
    ]);
    // The API server's calls go to the first (the configurations' URL); both are checked directly.
    const [first] = replicas;
    if (first === undefined) throw new Error('no replica started');
    try {
      let counter = 0;
      const application = (image: string) =>
        admin.create({
          apiVersion: 'core.crd.lixueduan.com/v1',
          kind: 'Application',
          metadata: { name: `app-${++counter}`, namespace: 'default' },
          spec: { image },
        } as KubernetesObject);
      // Both replicas serve once the first certificate is in place and trusted.
      await eventually(
        async () => {
          try {
            await application('nginx:1.22');
            return true;
          } catch {
            return false;
          }
        },
        { timeoutMs: 20_000, description: `webhooks served; logs:\n${first.output.join('')}` },
      );

      const failures: string[] = [];
      const signers = new Set<string>();
      const served = new Set<string>();
      let forced = false;
      const started = Date.now();
      // The initial CA, the forced one (at 1.5 s) and its renewal at two thirds of 15 s; the
      // serving certificates of each, and the renewal of the forced one's at two thirds of 9 s:
      // about 10 s of rotations, checked until all were seen. The deadline is for a loaded
      // machine (CI runs every package's tests at once), where timers fire late.
      const rotated = () => signers.size >= 3 && served.size >= 4;
      while (!rotated() && Date.now() - started < 60_000) {
        // Through the API server: the validating webhook denies, the mutating one defaults.
        try {
          await application('Not A/valid::image');
          failures.push('an invalid image was admitted');
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          if (
            !message.includes(
              'admission webhook "vapplication-v1.lixueduan.com" denied the request: invalid image name',
            )
          ) {
            failures.push(`validating call failed: ${message}`);
          }
        }
        try {
          const created = (await application('nginx:1.22')) as K8sObject;
          if (created.spec.enabled !== true) failures.push('the mutating webhook did not default');
        } catch (error) {
          failures.push(`mutating call failed: ${error instanceof Error ? error.message : error}`);
        }
        // Each replica's certificate, then the bundles: what it served must be trusted.
        for (const replica of replicas) {
          const cert = await servedCertificate(replica.port);
          served.add(cert);
          for (const bundle of await configurationBundles()) {
            if (!trusted(cert, bundle))
              failures.push(`replica on ${replica.port} served an untrusted certificate`);
          }
        }
        const current = await secret();
        signers.add(
          Buffer.from(current.data?.['ca.crt'] ?? '', 'base64')
            .toString('utf8')
            .split('-----END CERTIFICATE-----')[0] ?? '',
        );
        // A forced rotation: without ca.key the operator makes a new CA (keeping the old one trusted).
        if (!forced && Date.now() - started > 1_500) {
          forced = true;
          const { 'ca.key': _removed, ...data } = current.data ?? {};
          await admin.update({ ...current, data });
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(failures).toEqual([]);
      expect(signers.size).toBeGreaterThanOrEqual(3);
      expect(served.size).toBeGreaterThanOrEqual(4);
      // One Secret shared by both replicas.
      const keys = Object.keys((await secret()).data ?? {}).sort();
      expect(keys).toEqual(['ca.crt', 'ca.key', 'tls.crt', 'tls.key']);
    } finally {
      for (const replica of replicas) replica.stop();
    }
    expect(await Promise.all(replicas.map((replica) => replica.exited))).toEqual([0, 0]);
  }, 150_000);
});
