import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, type KubernetesObject, Manager, type Pod, pods } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import type { Environment, RunningOperatorManager, ServiceAccountIdentity } from '@ops/envtest';
import { eventually, freePort, startOperatorEnvironment, startOperatorManager } from '@ops/envtest';
import { readOperatorProject, routeWebhooksForTest } from '@ops/operator-cli';
import pino from 'pino';
import { type SidecarSet, sidecarSetResource } from '../src/api/v1alpha1/sidecar-set.js';
import { createSidecarOperator, registerWebhooks } from '../src/operator.js';

const run = promisify(execFile);
/** The operator's logs: silent unless OPERATOR_LOG_LEVEL names a level. */
const logger = pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' });
export const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
/** The Pod webhook's configuration, as config/default names it. */
export const mutatingConfiguration = 'sidecar-operator-mutating-webhook-configuration';
/**
 * The sidecar-operator as it runs in a cluster, on the control plane `@ops/envtest` starts for
 * a suite that needs Pods (the local API server's simulated cluster, or with
 * `OPS_ENVTEST_CONTROL_PLANE=binaries` the cluster plane of kwok nodes): the manager runs as
 * its ServiceAccount under the RBAC `kubectl kustomize config/default` renders (so the API
 * server's authorizer checks the generated ClusterRole), with the webhook server of this
 * process serving both webhooks over TLS.
 *
 * How the API server reaches the webhooks: on the local API server through the webhook
 * Service and its Endpoints, as `ops-operator webhook-local` routes them (a Service without
 * selector, Endpoints to 127.0.0.1:<port>, the configurations of
 * config/default-no-certmanager trusting a generated CA, a certificate for the Service's DNS
 * names); on the real planes, whose kube-apiserver resolves a Service to its ClusterIP and
 * has no kube-proxy to reach it, by URL on the loopback address (`env.installWebhooks`, as
 * controller-runtime's envtest), with the same certificates.
 */
export class SidecarHarness {
  readonly admin: Client;
  /** Writes (create/update/patch/delete) the operator has sent, as `verb resource`. */
  readonly writes: string[] = [];
  private operator: RunningOperatorManager<Manager> | undefined;

  private constructor(
    readonly env: Environment,
    readonly identity: ServiceAccountIdentity,
    /** The port the webhook server listens on, the same across operator restarts. */
    readonly webhookPort: number,
    private readonly certDir: string,
  ) {
    this.admin = new Client({ kubeConfig: env.kubeConfig });
  }

  static async start(): Promise<SidecarHarness> {
    const { env, identity, rendered } = await startOperatorEnvironment(operatorRoot, {
      requires: 'pods',
    });
    const certDir = await mkdtemp(join(tmpdir(), 'sidecar-operator-certs-'));
    try {
      const port = await freePort();
      await routeWebhooksForTest(readOperatorProject(operatorRoot), env, {
        port,
        certDir,
        rendered,
      });
      return new SidecarHarness(env, identity, port, certDir);
    } catch (error) {
      await env.stop();
      await rm(certDir, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Starts (or restarts) the operator as `runOperator` would: a new manager as its
   * ServiceAccount, the SidecarSet controller, and the webhook server on {@link webhookPort}
   * reading the SidecarSets from that manager's cache. Resolves once it leads and the API
   * server reaches the validating webhook.
   */
  async startOperator(): Promise<void> {
    const operator = createSidecarOperator();
    const webhookServer = new WebhookServer({
      port: this.webhookPort,
      host: '127.0.0.1',
      certDir: this.certDir,
    });
    registerWebhooks(operator, webhookServer);
    this.operator = await startOperatorManager({
      identity: this.identity,
      createManager: (settings) => new Manager({ ...settings, logger, webhookServer }),
      setup: (manager) => operator.setup(manager),
      writes: this.writes,
    });
    await eventually(
      () =>
        this.admin
          .create(
            {
              apiVersion: sidecarSetResource.apiVersion,
              kind: 'SidecarSet',
              metadata: { name: 'webhook-probe' },
              spec: {},
            } as SidecarSet,
            { dryRun: true },
          )
          .then(
            () => false,
            (error: Error) => error.message.includes('no selector defined for sidecarset'),
          ),
      { description: 'the API server calls the validating webhook' },
    );
  }

  /** Stops the operator: its manager and webhook server (as SIGTERM would). */
  async stopOperator(): Promise<void> {
    await this.operator?.stop();
    this.operator = undefined;
  }

  /** SidecarSet `name`, as the admin reads it. */
  sidecarSet(name: string): Promise<SidecarSet> {
    return this.admin.get(sidecarSetResource, name);
  }

  /** The Pods of `namespace` with label `app=<app>`, as the admin lists them. */
  async podsOf(app: string, namespace = 'default'): Promise<Pod[]> {
    const list = await this.admin.list(pods, { namespace, labelSelector: `app=${app}` });
    return list.items;
  }

  /** A Deployment of `replicas` Pods labelled `app=<app>` in `default`, as the admin. */
  createDeployment(name: string, app: string, replicas: number): Promise<KubernetesObject> {
    return this.admin.create({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'default' },
      spec: {
        replicas,
        selector: { matchLabels: { app } },
        template: {
          metadata: { labels: { app } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] },
        },
      },
    });
  }

  /** Runs the real kubectl as the admin user; resolves to stdout, rejects with its stderr. */
  async kubectl(args: string[], input?: string): Promise<string> {
    return (await this.kubectlOutput(args, input)).stdout;
  }

  /** {@link kubectl}, resolving to stdout and stderr (where kubectl prints `Warning:` lines). */
  async kubectlOutput(args: string[], input?: string): Promise<{ stdout: string; stderr: string }> {
    const child = run(process.env.KUBECTL || 'kubectl', [
      '--kubeconfig',
      this.env.kubeconfigPath,
      ...args,
    ]);
    if (input !== undefined) child.child.stdin?.end(input);
    try {
      const { stdout, stderr } = await child;
      return { stdout, stderr };
    } catch (error) {
      const failure = error as { stderr?: string; message: string };
      throw new Error(failure.stderr?.replace(/\n$/, '') || failure.message);
    }
  }

  async stop(): Promise<void> {
    await this.stopOperator();
    this.admin.close();
    await this.env.stop();
    await rm(this.certDir, { recursive: true, force: true });
  }
}
