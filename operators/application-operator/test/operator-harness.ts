import { fileURLToPath } from 'node:url';
import {
  type Client,
  type Deployment,
  deployments,
  type KubernetesObject,
  Manager,
} from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import {
  OperatorHarness as EnvtestOperatorHarness,
  eventually,
  startOperatorEnvironment,
} from '@ops/envtest';
import pino from 'pino';
import { expect } from 'vitest';
import type { Application } from '../src/api/v1/application.js';
import { addApplicationController, registerApplicationWebhooks } from '../src/operator.js';

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
 * or the cluster plane for a suite that requires Pods), through envtest's `OperatorHarness`:
 * the manager runs as its own ServiceAccount under the RBAC that `kubectl kustomize
 * config/default` renders (so the API server's authorizer checks the generated role), and
 * the API server calls its webhook server, in this process, through the generated webhook
 * configurations pointed at it by URL on the loopback address, trusting its serving
 * certificate (as controller-runtime's envtest; cert-manager does not run here).
 */
export class OperatorHarness extends EnvtestOperatorHarness<Manager> {
  static async start(options: OperatorHarnessOptions = {}): Promise<OperatorHarness> {
    const harness = new OperatorHarness(
      await startOperatorEnvironment(operatorRoot, {
        ...(options.requires ? { requires: options.requires } : {}),
      }),
      {
        createManager: (settings) => new Manager({ ...settings, logger }),
        setup: (manager) => addApplicationController(manager),
      },
    );
    try {
      const { identity } = harness;
      if (identity.namespace !== systemNamespace || identity.name !== serviceAccount)
        throw new Error(
          `config/default runs the manager as ${identity.namespace}/${identity.name}, expected ${systemNamespace}/${serviceAccount}`,
        );
      if (options.webhooks ?? true) await harness.serveBothWebhooks();
      return harness;
    } catch (error) {
      // A failed setup stops the control plane it started (on the binaries plane, processes).
      await harness.stop();
      throw error;
    }
  }

  /** Serves both webhooks from this process and waits until the API server calls them. */
  private async serveBothWebhooks(): Promise<void> {
    // The API server calls https://127.0.0.1:<port>/<path>: the certificate is for that address.
    const { certDir, caCert } = await this.servingCertificates('application-operator-certs-');
    const webhooks = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    registerApplicationWebhooks(webhooks);
    await this.serveWebhooks(webhooks, this.rendered, caCert);
    await webhooksCalled(this.admin);
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
}
