import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client, events, type KubernetesObject, Manager, type Pod, pods } from '@ops/core';
import type { Environment, RunningOperatorManager, ServiceAccountIdentity } from '@ops/envtest';
import { eventually, startOperatorEnvironment, startOperatorManager } from '@ops/envtest';
import pino from 'pino';
import { type MyJob, myJobResource } from '../src/api/v1beta1/my-job.js';
import { addMyJobController } from '../src/operator.js';

const run = promisify(execFile);
/** The operator's logs: silent unless OPERATOR_LOG_LEVEL names a level. */
const logger = pino({ level: process.env.OPERATOR_LOG_LEVEL ?? 'silent' });
const operatorRoot = fileURLToPath(new URL('..', import.meta.url));
const namespace = 'default';

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
 * server's authorizer checks the generated role. Every object lives in `default`.
 */
export class MyJobHarness {
  readonly admin: Client;
  /** Writes (create/update/patch/delete) the operator has sent, as `verb resource`. */
  readonly writes: string[] = [];
  private operator: RunningOperatorManager<Manager> | undefined;

  private constructor(
    readonly env: Environment,
    readonly identity: ServiceAccountIdentity,
  ) {
    this.admin = new Client({ kubeConfig: env.kubeConfig });
  }

  static async start(): Promise<MyJobHarness> {
    const { env, identity } = await startOperatorEnvironment(operatorRoot, { requires: 'pods' });
    return new MyJobHarness(env, identity);
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
  }
}
