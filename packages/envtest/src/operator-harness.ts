import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServingCertificates } from '@ops/apiserver';
import { Client, type KubernetesObject } from '@ops/core';
import type { OperatorEnvironment } from './operator-environment.js';
import {
  type OperatorManagerLike,
  type OperatorManagerSettings,
  type RunningOperatorManager,
  startOperatorManager,
} from './operator-manager.js';

const run = promisify(execFile);

/** How an {@link OperatorHarness} makes and sets up the operator's manager, per start. */
export interface OperatorHarnessOptions<M extends OperatorManagerLike> {
  /**
   * Makes the manager from the settings (the ServiceAccount's kubeconfig, no ports, writes
   * counted), adding what the operator's entry point adds: `(settings) => new Manager({
   * ...settings, logger })`. Called on every {@link OperatorHarness.startOperator}.
   */
  createManager: (settings: OperatorManagerSettings) => M;
  /** The operator's own setup, as its entry point runs it: controllers, webhooks, runnables. */
  setup: (manager: M) => void | Promise<void>;
}

/** What a webhook server must offer to {@link OperatorHarness.serveWebhooks}: `@ops/core`'s `WebhookServer` has it. */
export interface WebhookServerLike {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The port it listens on once started. */
  readonly port: number | undefined;
}

/** A serving certificate of {@link OperatorHarness.servingCertificates}. */
export interface ServingCertificateDirectory {
  /** The directory holding `tls.crt` and `tls.key` (a `WebhookServer`'s `certDir`). */
  certDir: string;
  /** The PEM of the CA that signed it, for the webhook configurations' `caBundle`. */
  caCert: string;
}

/**
 * One operator's end-to-end suite on an envtest control plane, the parts every operator's
 * suite shares: the control plane and the operator's ServiceAccount of
 * {@link startOperatorEnvironment} (pass what it resolved with), an admin {@link Client}, the
 * operator's manager started and stopped as its ServiceAccount (`startOperator`, as often as a
 * suite restarts it, its writes kept in one record), webhook servers served from the test
 * process (`serveWebhooks`), the real kubectl as the admin, and one `stop` that undoes all of
 * it. What is the operator's own (its manager factory and setup, its CRDs' helpers, its
 * webhook server) is passed in or added by a subclass.
 */
export class OperatorHarness<M extends OperatorManagerLike> {
  /** The control plane; stopped by {@link stop}. */
  readonly env: OperatorEnvironment['env'];
  /** The operator's ServiceAccount, with its token and kubeconfig. */
  readonly identity: OperatorEnvironment['identity'];
  /** The objects `kubectl kustomize <operator>/config/default` rendered. */
  readonly rendered: KubernetesObject[];
  /** A client as the control plane's admin; closed by {@link stop}. */
  readonly admin: Client;
  /** Writes (create/update/patch/delete) the operator has sent, as `verb resource`, across restarts. */
  readonly writes: string[] = [];
  private operator: RunningOperatorManager<M> | undefined;
  /** What {@link stop} undoes after the manager and the admin, last added first. */
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(
    started: OperatorEnvironment,
    private readonly options: OperatorHarnessOptions<M>,
  ) {
    this.env = started.env;
    this.identity = started.identity;
    this.rendered = started.rendered;
    this.admin = new Client({ kubeConfig: started.env.kubeConfig });
  }

  /**
   * Starts (or restarts) the operator's manager as its ServiceAccount with the operator's
   * setup (`startOperatorManager`); resolves with it once it leads.
   *
   * @throws {Error} as `startOperatorManager`.
   */
  async startOperator(): Promise<M> {
    this.operator = await startOperatorManager({
      identity: this.identity,
      createManager: this.options.createManager,
      setup: this.options.setup,
      writes: this.writes,
    });
    return this.operator.manager;
  }

  /** Stops the operator's manager (as SIGTERM would); does nothing when none runs. */
  async stopOperator(): Promise<void> {
    const operator = this.operator;
    this.operator = undefined;
    await operator?.stop();
  }

  /** Runs `cleanup` at {@link stop} (after the manager stops, before the control plane does). */
  onStop(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /**
   * A serving certificate for `127.0.0.1` (the address the API server calls a webhook served
   * by this process at) in a new temporary directory, removed at {@link stop}.
   */
  async servingCertificates(prefix = 'operator-certs-'): Promise<ServingCertificateDirectory> {
    const certDir = await mkdtemp(join(tmpdir(), prefix));
    this.onStop(() => rm(certDir, { recursive: true, force: true }));
    const certificates = await createServingCertificates(['127.0.0.1']);
    await writeFile(join(certDir, 'tls.crt'), certificates.cert);
    await writeFile(join(certDir, 'tls.key'), certificates.key);
    return { certDir, caCert: certificates.caCert };
  }

  /**
   * Starts `server` (serving with the certificate of `caCert`, from
   * {@link servingCertificates}), stopped at {@link stop}, and installs `objects` (webhook
   * configurations, CRDs with a conversion webhook) pointed at it by URL on the loopback
   * address (`env.installWebhooks`). The API server picks them up a moment later: wait for it
   * to call them before relying on them.
   *
   * @throws {Error} `the webhook server started without a port` when it has none once started.
   */
  async serveWebhooks(
    server: WebhookServerLike,
    objects: readonly KubernetesObject[],
    caCert: string,
  ): Promise<void> {
    await server.start();
    this.onStop(() => server.stop());
    const port = server.port;
    if (port === undefined) throw new Error('the webhook server started without a port');
    await this.env.installWebhooks(objects, { port, caCert });
  }

  /** Runs the real kubectl (`$KUBECTL`, else `kubectl`) as the admin; resolves with its stdout. */
  async kubectl(args: string[], input?: string): Promise<string> {
    return (await this.kubectlOutput(args, input)).stdout;
  }

  /**
   * {@link kubectl}, resolving with stdout and stderr (where kubectl prints `Warning:` lines).
   *
   * @throws {Error} with kubectl's stderr (its final newline removed) when it fails.
   */
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
      // Only the final newline goes: kubectl's message may end in a meaningful space.
      throw new Error(failure.stderr?.replace(/\n$/, '') || failure.message);
    }
  }

  /** Resolves once the operator's writes stop for `quietMs` (its queue drained). */
  async settle(quietMs = 500): Promise<void> {
    let count = -1;
    while (count !== this.writes.length) {
      count = this.writes.length;
      await new Promise((resolve) => setTimeout(resolve, quietMs));
    }
  }

  /**
   * Stops the operator's manager, closes the admin client, runs the {@link onStop} cleanups
   * (last added first) and stops the control plane. Every step runs even when one fails.
   *
   * @throws the first error of a step, once every step ran.
   */
  async stop(): Promise<void> {
    const steps: (() => Promise<void> | void)[] = [
      () => this.stopOperator(),
      () => this.admin.close(),
      ...this.cleanups.splice(0).reverse(),
      () => this.env.stop(),
    ];
    const errors: unknown[] = [];
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length > 0) throw errors[0];
  }
}
