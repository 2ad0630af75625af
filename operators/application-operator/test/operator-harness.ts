import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { createServingCertificates } from '@ops/apiserver';
import { Client, type KubernetesObject, Manager } from '@ops/core';
import { clusterRoleFromRules } from '@ops/core/crd';
import { WebhookServer } from '@ops/core/webhook';
import { Environment } from '@ops/envtest';
import pino from 'pino';
import YAML from 'yaml';
import { applicationResource } from '../src/api/v1/application.js';
import { rbac } from '../src/manifests.js';
import { addApplicationController, registerApplicationWebhooks } from '../src/operator.js';

const run = promisify(execFile);
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
export const systemNamespace = 'application-operator-system';
const serviceAccount = 'application-operator-controller-manager';
const webhookService = 'application-operator-webhook-service';

/**
 * The operator as it runs in a cluster, on the local API server with RBAC enforced: its own
 * service account bound to the generated role, the webhook configurations as kustomize
 * renders them (caBundle filled in, as cert-manager would), and the webhook server reached
 * over TLS through a Service whose Endpoints point at this process.
 */
export class OperatorHarness {
  readonly admin: Client;
  private stopManager: AbortController | undefined;
  private running: Promise<void> | undefined;
  /** Writes (create/update/patch/delete) the operator has sent, as `verb resource`. */
  readonly writes: string[] = [];

  private constructor(
    readonly env: Environment,
    private readonly operatorConfig: KubeConfig,
    private readonly webhooks: WebhookServer,
  ) {
    this.admin = new Client({ kubeConfig: env.kubeConfig });
  }

  static async start(): Promise<OperatorHarness> {
    const env = await Environment.start({
      apiServer: { rbac: true },
      crds: [applicationResource.crd() as unknown as KubernetesObject],
    });
    try {
      return await OperatorHarness.setUp(env);
    } catch (error) {
      // A failed setup stops the control plane it started (on the binaries plane, processes).
      await env.stop();
      throw error;
    }
  }

  private static async setUp(env: Environment): Promise<OperatorHarness> {
    const admin = new Client({ kubeConfig: env.kubeConfig });
    await admin.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: systemNamespace },
    });
    await admin.create(
      clusterRoleFromRules(
        'application-operator-manager-role',
        rbac.rules,
      ) as unknown as KubernetesObject,
    );
    await admin.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'application-operator-manager-rolebinding' },
      roleRef: {
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'ClusterRole',
        name: 'application-operator-manager-role',
      },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: systemNamespace }],
    });
    const operatorConfig = new KubeConfig();
    operatorConfig.loadFromString(
      await env.serviceAccountKubeconfig(systemNamespace, serviceAccount),
    );

    const certificates = await createServingCertificates([
      `${webhookService}.${systemNamespace}.svc`,
      'localhost',
    ]);
    const certDir = await mkdtemp(join(tmpdir(), 'application-operator-certs-'));
    await writeFile(join(certDir, 'tls.crt'), certificates.cert);
    await writeFile(join(certDir, 'tls.key'), certificates.key);
    const webhooks = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    registerApplicationWebhooks(webhooks);
    await webhooks.start();
    await admin.create({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: webhookService, namespace: systemNamespace },
      spec: { ports: [{ port: 443, targetPort: webhooks.port }] },
    });
    await admin.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name: webhookService, namespace: systemNamespace },
      subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: webhooks.port }] }],
    });
    const { stdout } = await run(
      process.env.KUBECTL ?? 'kubectl',
      ['kustomize', join(operatorRoot, 'config', 'default')],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    const caBundle = Buffer.from(certificates.caCert).toString('base64');
    for (const document of YAML.parseAllDocuments(stdout)) {
      const object = document.toJS() as KubernetesObject & {
        webhooks?: Array<{ clientConfig: { caBundle?: string } }>;
      };
      if (
        object.kind !== 'MutatingWebhookConfiguration' &&
        object.kind !== 'ValidatingWebhookConfiguration'
      )
        continue;
      for (const webhook of object.webhooks ?? []) webhook.clientConfig.caBundle = caBundle;
      await admin.create(object);
    }
    return new OperatorHarness(env, operatorConfig, webhooks);
  }

  /** Starts (or restarts) the operator's manager as its service account. */
  async startOperator(): Promise<Manager> {
    const manager = new Manager({
      kubeConfig: this.operatorConfig,
      logger: pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' }),
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      onRequest: (verb, resource) => {
        if (!['get', 'list', 'watch'].includes(verb)) this.writes.push(`${verb} ${resource}`);
      },
    });
    addApplicationController(manager);
    this.stopManager = new AbortController();
    this.running = manager.start(this.stopManager.signal);
    const deadline = Date.now() + 10_000;
    while (!manager.isLeader()) {
      if (Date.now() > deadline) throw new Error('the operator did not start within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return manager;
  }

  /** Stops the operator's manager (as SIGTERM would). */
  async stopOperator(): Promise<void> {
    this.stopManager?.abort();
    await this.running;
  }

  /** Runs the real kubectl as the admin user. */
  async kubectl(args: string[]): Promise<string> {
    try {
      const { stdout } = await run(process.env.KUBECTL ?? 'kubectl', [
        '--kubeconfig',
        this.env.kubeconfigPath,
        ...args,
      ]);
      return stdout;
    } catch (error) {
      const failure = error as { stderr?: string; message: string };
      // Only the final newline goes: kubectl's message may end in a meaningful space.
      throw new Error(failure.stderr?.replace(/\n$/, '') || failure.message);
    }
  }

  async stop(): Promise<void> {
    await this.stopOperator();
    await this.webhooks.stop();
    await this.env.stop();
  }
}
