import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createServingCertificates } from '@ops/apiserver';
import { Client, type Deployment, deployments, type KubernetesObject, Manager } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import type { RunningOperatorManager, ServiceAccountIdentity } from '@ops/envtest';
import { Environment, eventually, startOperatorManager } from '@ops/envtest';
import pino from 'pino';
import { expect } from 'vitest';
import { type Application, applicationResource } from '../src/api/v1/application.js';
import { addApplicationController, registerApplicationWebhooks } from '../src/operator.js';

const run = promisify(execFile);
/** The operator's logs: silent unless OPERATOR_LOG_LEVEL names a level. */
const logger = pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' });
const applicationApi = 'core.crd.lixueduan.com/v1';

/** The Ready condition of an Application, if it has one. */
export const readyCondition = (app: Application) =>
  app.status?.conditions?.find((condition) => condition.type === 'Ready');

/** What the ownerReferences of a Deployment the operator made for `app` equal. */
export const controlledBy = (app: Application) => [
  expect.objectContaining({
    kind: 'Application',
    name: app.metadata.name,
    uid: app.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  }),
];

/**
 * Resolves once the API server calls both webhooks (kube-apiserver picks up new
 * configurations from a watch, a moment after they are stored): a dry-run create is
 * defaulted by the mutating one and an invalid one denied by the validating one.
 */
async function webhooksCalled(admin: Client): Promise<void> {
  const probe = (image: string) =>
    admin.create<Application>(
      {
        apiVersion: applicationApi,
        kind: 'Application',
        metadata: { name: 'webhook-probe', namespace: 'default' },
        spec: { image },
      } as Application,
      { dryRun: true },
    );
  await eventually(
    async () => {
      if ((await probe('nginx')).spec.enabled !== true) return false;
      return probe('Not A/valid::image').then(
        () => false,
        (error: Error) => error.message.includes('denied the request'),
      );
    },
    { description: 'the API server calls the webhooks' },
  );
}

/** Whether `read` fails with 404 (the object is gone). */
export async function gone(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (error) {
    return (error as { code?: number }).code === 404;
  }
}
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
export const systemNamespace = 'application-operator-system';
const serviceAccount = 'application-operator-controller-manager';

/** Options of {@link OperatorHarness.start}. */
export interface OperatorHarnessOptions {
  /**
   * `pods`: the suite needs running Pods (an Application becomes ready once its
   * Deployment's Pods are available); passed to `Environment.start` of `@ops/envtest`.
   */
  requires?: 'pods';
  /**
   * `false`: no webhook server and no webhook configurations, as on a cluster where the
   * operator runs with `--disable-webhooks` (or its webhooks are not installed): what the
   * reconciler alone does with what the API server stores. Default: both webhooks, called.
   */
  webhooks?: boolean;
}

/**
 * The operator as it runs in a cluster, on whichever control plane `@ops/envtest` starts (the
 * local API server, or with `OPS_ENVTEST_CONTROL_PLANE=binaries` real etcd + kube-apiserver,
 * or the cluster plane for a suite that requires Pods):
 * the manager runs as its own ServiceAccount under the RBAC that `kubectl kustomize
 * config/default` renders (so the API server's authorizer checks the generated role), and
 * the API server calls its webhook server, in this process, through the generated webhook
 * configurations pointed at it by URL on the loopback address, trusting its serving
 * certificate (as controller-runtime's envtest; cert-manager does not run here).
 */
export class OperatorHarness {
  readonly admin: Client;
  private operator: RunningOperatorManager<Manager> | undefined;
  /** Writes (create/update/patch/delete) the operator has sent, as `verb resource`. */
  readonly writes: string[] = [];

  private constructor(
    readonly env: Environment,
    /** The operator's ServiceAccount, with its token and kubeconfig. */
    readonly identity: ServiceAccountIdentity,
    /** The webhook server and its certificates' directory; absent with `webhooks: false`. */
    private readonly webhooks: { server: WebhookServer; certDir: string } | undefined,
  ) {
    this.admin = new Client({ kubeConfig: env.kubeConfig });
  }

  static async start(options: OperatorHarnessOptions = {}): Promise<OperatorHarness> {
    const env = await Environment.start({
      apiServer: { rbac: true },
      crds: [applicationResource.crd() as unknown as KubernetesObject],
      ...(options.requires ? { requires: options.requires } : {}),
    });
    try {
      return await OperatorHarness.setUp(env, options.webhooks ?? true);
    } catch (error) {
      // A failed setup stops the control plane it started (on the binaries plane, processes).
      await env.stop();
      throw error;
    }
  }

  private static async setUp(env: Environment, withWebhooks: boolean): Promise<OperatorHarness> {
    // The manager's ServiceAccount under the rendered RBAC, in its namespace labelled as
    // rendered (Pod Security `restricted`); on kube-apiserver its manager Pod is admitted there.
    const { identity, rendered } = await env.operatorServiceAccount(
      join(operatorRoot, 'config', 'default'),
    );
    if (identity.namespace !== systemNamespace || identity.name !== serviceAccount)
      throw new Error(
        `config/default runs the manager as ${identity.namespace}/${identity.name}, expected ${systemNamespace}/${serviceAccount}`,
      );
    if (!withWebhooks) return new OperatorHarness(env, identity, undefined);

    // The API server calls https://127.0.0.1:<port>/<path>: the certificate is for that address.
    const certificates = await createServingCertificates(['127.0.0.1']);
    const certDir = await mkdtemp(join(tmpdir(), 'application-operator-certs-'));
    await writeFile(join(certDir, 'tls.crt'), certificates.cert);
    await writeFile(join(certDir, 'tls.key'), certificates.key);
    const webhooks = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    registerApplicationWebhooks(webhooks);
    await webhooks.start();
    try {
      const port = webhooks.port;
      if (port === undefined) throw new Error('the webhook server started without a port');
      await env.installWebhooks(rendered, { port, caCert: certificates.caCert });
      const admin = new Client({ kubeConfig: env.kubeConfig });
      await webhooksCalled(admin).finally(() => admin.close());
    } catch (error) {
      await webhooks.stop();
      await rm(certDir, { recursive: true, force: true });
      throw error;
    }
    return new OperatorHarness(env, identity, { server: webhooks, certDir });
  }

  /** The Application `name` in `default`, as the admin reads it. */
  application(name: string): Promise<Application> {
    return this.admin.get<Application>(applicationApi, 'Application', name, 'default');
  }

  /** The Deployment of Application `name` (`app-<name>` in `default`). */
  deployment(name: string): Promise<Deployment> {
    return this.admin.get(deployments, `app-${name}`, 'default');
  }

  /** Creates Application `name` in `default` with `spec`, as the admin. */
  createApplication(name: string, spec: Record<string, unknown>): Promise<KubernetesObject> {
    return this.admin.create({
      apiVersion: applicationApi,
      kind: 'Application',
      metadata: { name, namespace: 'default' },
      spec,
    });
  }

  /** Merge-patches the spec of Application `name`, as the admin. */
  patchSpec(name: string, spec: Record<string, unknown>): Promise<KubernetesObject> {
    return this.admin.patch(
      { apiVersion: applicationApi, kind: 'Application', metadata: { name, namespace: 'default' } },
      { spec },
      'merge',
    );
  }

  /** Deletes Application `name`, as the admin (its finalizer keeps it until the operator is done). */
  deleteApplication(name: string): Promise<void> {
    return this.admin.delete({
      apiVersion: applicationApi,
      kind: 'Application',
      metadata: { name, namespace: 'default' },
    });
  }

  /** Starts (or restarts) the operator's manager as its service account. */
  async startOperator(): Promise<Manager> {
    this.operator = await startOperatorManager({
      identity: this.identity,
      createManager: (settings) => new Manager({ ...settings, logger }),
      setup: (manager) => addApplicationController(manager),
      writes: this.writes,
    });
    return this.operator.manager;
  }

  /** Stops the operator's manager (as SIGTERM would). */
  async stopOperator(): Promise<void> {
    await this.operator?.stop();
  }

  /** Runs the real kubectl as the admin user, with `input` on its stdin when given. */
  async kubectl(args: string[], input?: string): Promise<string> {
    const child = run(process.env.KUBECTL ?? 'kubectl', [
      '--kubeconfig',
      this.env.kubeconfigPath,
      ...args,
    ]);
    if (input !== undefined) child.child.stdin?.end(input);
    try {
      const { stdout } = await child;
      return stdout;
    } catch (error) {
      const failure = error as { stderr?: string; message: string };
      // Only the final newline goes: kubectl's message may end in a meaningful space.
      throw new Error(failure.stderr?.replace(/\n$/, '') || failure.message);
    }
  }

  async stop(): Promise<void> {
    await this.stopOperator();
    await this.webhooks?.server.stop();
    await this.env.stop();
    if (this.webhooks) await rm(this.webhooks.certDir, { recursive: true, force: true });
  }
}
