import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createServingCertificates } from '@ops/apiserver';
import { Client, events, type KubernetesObject, Manager, type Pod, pods } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import type { RunningOperatorManager, ServiceAccountIdentity } from '@ops/envtest';
import {
  Environment,
  eventually,
  startOperatorEnvironment,
  startOperatorManager,
} from '@ops/envtest';
import pino from 'pino';
import { type MyJob, myJobResource } from '../src/api/v1/my-job.js';
import { addMyJobController } from '../src/operator.js';
import { myJobConversion } from '../src/webhook/my-job-conversion.js';

const run = promisify(execFile);
/** The operator's logs: silent unless OPERATOR_LOG_LEVEL names a level. */
const logger = pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' });
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const namespace = 'default';

/** OPERATORS.md's sample MyJob, verbatim (v1beta1, applied with kubectl by the e2e suites). */
export const operatorsMdSample = `apiVersion: myjob.github.com/v1beta1
kind: MyJob
metadata: {name: myjob-sample}
spec:
  template:
    metadata: {name: pi}
    spec:
      containers:
      - name: pi
        image: perl
        command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
`;

/** The `Completed` condition of a MyJob, if it has one. */
export const completedCondition = (job: MyJob) =>
  job.status?.conditions?.find((condition) => condition.type === 'Completed');

/** The `Ready` condition of a MyJob, if it has one. */
export const readyCondition = (job: MyJob) =>
  job.status?.conditions?.find((condition) => condition.type === 'Ready');

/**
 * The myjob-operator as it runs in a cluster, on the control plane `@ops/envtest` starts for a
 * suite that needs Pods (`requires: 'pods'`: the local API server's simulated cluster, or with
 * `OPS_ENVTEST_CONTROL_PLANE=binaries` the cluster plane of kwok nodes; both finish a Pod by its
 * run-duration and exit-code annotations): the manager runs as
 * its ServiceAccount under the RBAC `kubectl kustomize config/default` renders, so the API
 * server's authorizer checks the generated role. The MyJob conversion webhook is served by
 * this process (a WebhookServer on the loopback address, with a serving certificate made for
 * it) and the CRD's conversion points at it by URL, as envtest does; every request in
 * v1beta1 goes through it. Every object lives in `default`.
 */
export class MyJobHarness {
  readonly admin: Client;
  /** Writes (create/update/patch/delete) the operator has sent, as `verb resource`. */
  readonly writes: string[] = [];
  private operator: RunningOperatorManager<Manager> | undefined;

  /** The webhook server of the conversion webhook and its certificates' directory, once served. */
  private webhooks: { server: WebhookServer; certDir: string } | undefined;

  private constructor(
    readonly env: Environment,
    readonly identity: ServiceAccountIdentity,
  ) {
    this.admin = new Client({ kubeConfig: env.kubeConfig });
  }

  /** The control plane with the CRD of config/crd/bases, its conversion webhook served. */
  static async start(): Promise<MyJobHarness> {
    const { env, identity } = await startOperatorEnvironment(operatorRoot, { requires: 'pods' });
    const harness = new MyJobHarness(env, identity);
    try {
      await harness.serveConversion();
    } catch (error) {
      await harness.stop();
      throw error;
    }
    return harness;
  }

  /**
   * The control plane with `crds` installed instead of the current CRD (an earlier release's,
   * for an upgrade), the manager's ServiceAccount under the RBAC of config/default, and no
   * webhook served: {@link serveConversion} then upgrades the CRD.
   */
  static async startWith(crds: KubernetesObject[]): Promise<MyJobHarness> {
    const env = await Environment.start({ requires: 'pods', apiServer: { rbac: true }, crds });
    try {
      const { identity } = await env.operatorServiceAccount(
        join(operatorRoot, 'config', 'default'),
      );
      return new MyJobHarness(env, identity);
    } catch (error) {
      await env.stop();
      throw error;
    }
  }

  /**
   * Serves the MyJob conversion webhook from this process and installs (or replaces) the
   * current CRD with its conversion pointed at it; resolves once the API server converts
   * through it.
   */
  async serveConversion(): Promise<void> {
    const certDir = await mkdtemp(join(tmpdir(), 'myjob-operator-certs-'));
    const server = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    this.webhooks = { server, certDir };
    // The API server calls https://127.0.0.1:<port>/convert: the certificate is for that address.
    const certificates = await createServingCertificates(['127.0.0.1']);
    await writeFile(join(certDir, 'tls.crt'), certificates.cert);
    await writeFile(join(certDir, 'tls.key'), certificates.key);
    server.register(myJobConversion);
    await server.start();
    const port = server.port;
    if (port === undefined) throw new Error('the webhook server started without a port');
    await this.env.installWebhooks([myJobResource.crd() as unknown as KubernetesObject], {
      port,
      caCert: certificates.caCert,
    });
    await this.conversionServed();
  }

  /**
   * Resolves once the API server converts through the webhook: kube-apiserver picks up a
   * CRD's new conversion a moment after it is stored, so the create of a MyJob in v1beta1
   * (stored in v1, so converted) is retried until it succeeds; the MyJob is deleted again
   * before the operator starts.
   */
  private async conversionServed(): Promise<void> {
    const probe = 'conversion-webhook-probe';
    await eventually(
      async () => {
        // 409: an earlier attempt was stored, its answer lost.
        await this.createMyJob(probe, {
          spec: { containers: [{ name: 'main', image: 'busybox' }] },
        }).catch((error: { code?: number }) => {
          if (error.code !== 409) throw error;
        });
        return true;
      },
      {
        description: 'a MyJob created in v1beta1 through the conversion webhook',
        timeoutMs: 60_000,
      },
    );
    await this.admin.delete({
      apiVersion: 'myjob.github.com/v1',
      kind: 'MyJob',
      metadata: { name: probe, namespace },
    });
  }

  /** Starts (or restarts) the operator's manager as its ServiceAccount; resolves once it leads. */
  async startOperator(): Promise<void> {
    this.operator = await startOperatorManager({
      identity: this.identity,
      createManager: (settings) => new Manager({ ...settings, logger }),
      setup: (manager) => addMyJobController(manager),
      writes: this.writes,
    });
  }

  /** Stops the operator's manager (as SIGTERM would). */
  async stopOperator(): Promise<void> {
    await this.operator?.stop();
  }

  createMyJob(name: string, template: Record<string, unknown>): Promise<KubernetesObject> {
    return this.admin.create({
      apiVersion: 'myjob.github.com/v1beta1',
      kind: 'MyJob',
      metadata: { name, namespace },
      spec: { template },
    });
  }

  myJob(name: string): Promise<MyJob> {
    return this.admin.get(myJobResource, name, namespace);
  }

  pod(name: string): Promise<Pod> {
    return this.admin.get(pods, name, namespace);
  }

  /** Whether the Pod `name` is gone (404). */
  async podGone(name: string): Promise<boolean> {
    return this.pod(name).then(
      () => false,
      (error: { code?: number }) => error.code === 404,
    );
  }

  /** Resolves with MyJob `name` once it is completed. */
  completed(name: string): Promise<MyJob> {
    return eventually(
      async () => {
        const job = await this.myJob(name);
        return job.status?.phase === 'completed' && job;
      },
      { description: `MyJob ${name} completed`, timeoutMs: 30_000 },
    );
  }

  /** The reasons of the Events about the object `name`. */
  async eventReasons(name: string): Promise<string[]> {
    const list = await this.admin.list(events, {
      namespace,
      fieldSelector: `involvedObject.name=${name}`,
    });
    return list.items.map((event) => event.reason ?? '');
  }

  /** Waits for the operator's queue to drain: its writes stop for a moment. */
  async settle(): Promise<void> {
    let count = -1;
    while (count !== this.writes.length) {
      count = this.writes.length;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** Runs the real kubectl as the admin user, with `input` on its stdin when given. */
  async kubectl(args: string[], input?: string): Promise<string> {
    const child = run(process.env.KUBECTL || 'kubectl', [
      '--kubeconfig',
      this.env.kubeconfigPath,
      ...args,
    ]);
    if (input !== undefined) child.child.stdin?.end(input);
    return (await child).stdout;
  }

  async stop(): Promise<void> {
    await this.stopOperator();
    this.admin.close();
    await this.env.stop();
    await this.webhooks?.server.stop();
    if (this.webhooks) await rm(this.webhooks.certDir, { recursive: true, force: true });
  }
}
