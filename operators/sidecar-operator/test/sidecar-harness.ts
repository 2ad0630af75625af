import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type KubernetesObject, Manager, type Pod, pods } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import {
  eventually,
  freePort,
  type OperatorEnvironment,
  OperatorHarness,
  startOperatorEnvironment,
} from '@ops/envtest';
import { readOperatorProject, routeWebhooksForTest } from '@ops/operator-cli';
import pino from 'pino';
import { type SidecarSet, sidecarSetResource } from '../src/api/v1alpha1/sidecar-set.js';
import { createSidecarOperator, registerWebhooks } from '../src/operator.js';

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
export class SidecarHarness extends OperatorHarness<Manager> {
  private constructor(
    started: OperatorEnvironment,
    /** The port the webhook server listens on, the same across operator restarts. */
    readonly webhookPort: number,
    certDir: string,
  ) {
    // Each start is the operator as `runOperator` runs it: a new manager as its
    // ServiceAccount, the SidecarSet controller, and the webhook server on the same port
    // reading the SidecarSets from that manager's cache.
    const operator = () => {
      const sidecar = createSidecarOperator();
      const webhookServer = new WebhookServer({ port: webhookPort, host: '127.0.0.1', certDir });
      registerWebhooks(sidecar, webhookServer);
      return { sidecar, webhookServer };
    };
    let current: ReturnType<typeof operator> | undefined;
    super(started, {
      createManager: (settings) => {
        current = operator();
        return new Manager({ ...settings, logger, webhookServer: current.webhookServer });
      },
      setup: (manager) => {
        if (current === undefined) throw new Error('the sidecar-operator was set up before made');
        return current.sidecar.setup(manager);
      },
    });
    this.onStop(() => rm(certDir, { recursive: true, force: true }));
  }

  static async start(): Promise<SidecarHarness> {
    const started = await startOperatorEnvironment(operatorRoot, { requires: 'pods' });
    const certDir = await mkdtemp(join(tmpdir(), 'sidecar-operator-certs-'));
    try {
      const port = await freePort();
      await routeWebhooksForTest(readOperatorProject(operatorRoot), started.env, {
        port,
        certDir,
        rendered: started.rendered,
      });
      return new SidecarHarness(started, port, certDir);
    } catch (error) {
      await started.env.stop();
      await rm(certDir, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Starts (or restarts) the operator (see the constructor); resolves with its manager once
   * it leads and the API server reaches the validating webhook.
   */
  override async startOperator(): Promise<Manager> {
    const manager = await super.startOperator();
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
    return manager;
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
}
