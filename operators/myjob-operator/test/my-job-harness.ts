import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { events, isNotFound, type KubernetesObject, Manager, type Pod, pods } from '@ops/core';
import { WebhookServer } from '@ops/core/webhook';
import {
  Environment,
  eventually,
  type OperatorEnvironment,
  OperatorHarness,
  type OperatorHarnessOptions,
  startOperatorEnvironment,
} from '@ops/envtest';
import pino from 'pino';
import { type MyJob, myJobResource } from '../src/api/v1/my-job.js';
import { addMyJobController } from '../src/operator.js';
import { myJobConversion } from '../src/webhook/my-job-conversion.js';

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

/** The manager of the myjob-operator, as its entry point sets it up. */
const manager: OperatorHarnessOptions<Manager> = {
  createManager: (settings) => new Manager({ ...settings, logger }),
  setup: (created) => addMyJobController(created),
};

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
export class MyJobHarness extends OperatorHarness<Manager> {
  private constructor(started: OperatorEnvironment) {
    super(started, manager);
  }

  /** The control plane with the CRD of config/crd/bases, its conversion webhook served. */
  static async start(): Promise<MyJobHarness> {
    const harness = new MyJobHarness(
      await startOperatorEnvironment(operatorRoot, { requires: 'pods' }),
    );
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
      const { identity, rendered } = await env.operatorServiceAccount(
        join(operatorRoot, 'config', 'default'),
      );
      return new MyJobHarness({ env, identity, rendered });
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
    // The API server calls https://127.0.0.1:<port>/convert: the certificate is for that address.
    const { certDir, caCert } = await this.servingCertificates('myjob-operator-certs-');
    const server = new WebhookServer({ port: 0, host: '127.0.0.1', certDir });
    server.register(myJobConversion);
    await this.serveWebhooks(server, [myJobResource.crd() as unknown as KubernetesObject], caCert);
    await this.conversionServed();
  }

  /**
   * Resolves once the API server converts through the webhook: kube-apiserver picks up a
   * CRD's new conversion a moment after it is stored, so the create of a MyJob in v1beta1
   * (stored in v1, so converted) is retried until it succeeds; the MyJob is deleted again,
   * through v1 once discovery serves it, before the operator starts.
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
    // Deleted through v1, which kube-apiserver's discovery lists a moment after the CRD is
    // stored, possibly after v1beta1 already converts (a CI run's NoKindMatch): the client's
    // REST mapper reads discovery afresh on each miss, so this also waits until v1 is served.
    await eventually(
      () =>
        this.admin
          .delete({
            apiVersion: 'myjob.github.com/v1',
            kind: 'MyJob',
            metadata: { name: probe, namespace },
          })
          // An earlier attempt deleted it, its answer lost.
          .catch((error: unknown) => {
            if (!isNotFound(error)) throw error;
          }),
      { description: 'the probe MyJob deleted through v1', timeoutMs: 30_000 },
    );
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
}
