import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { createServingCertificates } from '@ops/apiserver';
import { Client, isNotFound, type KubernetesObject } from '@ops/core';
import type { Environment } from '../environment.js';
import type { WebhookServerLike } from '../operator-harness.js';
import { inNamespace } from './in-namespace.js';
import { WebhookProxy } from './webhook-proxy.js';

/**
 * The admission webhooks of a scenario's operator: its webhook configurations, and how an
 * incarnation of the operator makes its webhook server (as its entry point does).
 */
export interface ScenarioWebhooks<M = unknown> {
  /**
   * The Mutating- and ValidatingWebhookConfigurations, as generated (`clientConfig.service`)
   * or with a URL: each run points them at its webhook proxy, with the run's CA. Their
   * `failurePolicy` (default `Fail`) and `timeoutSeconds` decide what an outage does.
   */
  configurations: KubernetesObject[];
  /**
   * Makes one incarnation's webhook server, its webhooks registered, serving the certificate
   * in `certDir` (`tls.crt`, `tls.key`, valid for 127.0.0.1) on any free port:
   * `new WebhookServer({ port: 0, host: '127.0.0.1', certDir }).register(...)`. `manager` is
   * the incarnation's, the scenario's `setup` done on it and not yet started: a webhook that
   * answers from the manager's cache (as an operator's entry point wires it) is bound to that
   * manager here. The explorer starts the server before the manager, so a conversion webhook
   * serves the manager's first lists, and stops it with the incarnation's crash or stop.
   */
  createServer(certDir: string, manager: M): WebhookServerLike;
  /**
   * Objects the API server calls the `failurePolicy: Fail` webhooks for when they are created
   * (for a Pod webhook, a Pod the webhook's rules and selectors match; at least one per
   * configuration object). kube-apiserver takes up a configuration a moment after it is
   * stored (it watches them): each run, before the operator starts, the explorer creates each
   * probe as a server-side dry run (nothing is stored) while no webhook server answers, until
   * the API server refuses it for want of its webhook, so no step's object is admitted before
   * the webhooks are in effect. Namespaced probes go in the run's namespace. Without probes,
   * runs start as soon as the configurations are stored (right on the local plane, which
   * takes them up at once; a race on the real planes).
   */
  probes?: KubernetesObject[];
}

/** One incarnation's webhook server, served through the run's {@link WebhookProxy}. */
export interface ServedWebhooks {
  /** Stops the server (the incarnation crashed or stopped); the proxy turns to another one. */
  stop(): Promise<void>;
}

/**
 * A run's webhooks: a serving certificate, the {@link WebhookProxy} the configurations point
 * at (installed on `env` by {@link start}), and the servers of the incarnations; the proxy
 * passes connections to the server started last among those still running.
 */
export class RunWebhooks<M = unknown> {
  private readonly servers: Array<{ port: number | undefined }> = [];
  /** The webhook configurations installed, removed by {@link stop}. */
  private installed: KubernetesObject[] = [];

  private constructor(
    private readonly webhooks: ScenarioWebhooks<M>,
    readonly proxy: WebhookProxy,
    private readonly certDir: string,
    private readonly kubeConfig: KubeConfig,
  ) {}

  /**
   * Makes the certificate and the proxy and installs the configurations pointed at it, then
   * waits until the API server calls them ({@link ScenarioWebhooks.probes}).
   *
   * @throws {Error} as `env.installWebhooks` (a configuration without a webhook, say).
   */
  static async start<M>(
    env: Pick<Environment, 'installWebhooks' | 'kubeConfig'>,
    webhooks: ScenarioWebhooks<M>,
    probe: { namespace: string; deadline: number },
  ): Promise<RunWebhooks<M>> {
    const certDir = await mkdtemp(join(tmpdir(), 'explore-webhooks-'));
    const proxy = await WebhookProxy.start();
    const run = new RunWebhooks(webhooks, proxy, certDir, env.kubeConfig);
    try {
      const certificates = await createServingCertificates(['127.0.0.1']);
      await writeFile(join(certDir, 'tls.crt'), certificates.cert);
      await writeFile(join(certDir, 'tls.key'), certificates.key);
      const installed = await env.installWebhooks(webhooks.configurations, {
        port: proxy.port,
        caCert: certificates.caCert,
      });
      run.installed = installed.filter((object) => /WebhookConfiguration$/.test(object.kind ?? ''));
      // No server is targeted yet, so the proxy refuses every call: a probe refused for want
      // of its webhook proves the configuration in effect.
      for (const object of webhooks.probes ?? [])
        await untilWebhookRefuses(env.kubeConfig, object, probe);
    } catch (error) {
      await run.stop();
      throw error;
    }
    return run;
  }

  /** Starts the webhook server of the incarnation of `manager` and turns the proxy to it. */
  async serve(manager: M): Promise<ServedWebhooks> {
    const server = this.webhooks.createServer(this.certDir, manager);
    await server.start();
    const entry = { port: server.port };
    this.servers.push(entry);
    this.proxy.target(entry.port);
    return {
      stop: async () => {
        const index = this.servers.indexOf(entry);
        if (index < 0) return;
        this.servers.splice(index, 1);
        this.proxy.target(this.servers[this.servers.length - 1]?.port);
        await server.stop();
      },
    };
  }

  /**
   * Removes the webhook configurations it installed (on a real plane the next run, maybe of
   * another scenario, would otherwise have its objects sent to a webhook nobody serves), then
   * stops the proxy and removes the certificate.
   */
  async stop(): Promise<void> {
    const client = new Client({ kubeConfig: this.kubeConfig });
    try {
      for (const object of this.installed)
        await client.delete(object).catch((error: unknown) => {
          if (!isNotFound(error)) throw error;
        });
    } finally {
      client.close();
      await this.proxy.stop();
      await rm(this.certDir, { recursive: true, force: true });
    }
  }
}

/** Whether an apply failed because the API server could not call a webhook (kube-apiserver's wording). */
export function isWebhookCallFailure(error: unknown): boolean {
  return /failed calling webhook/.test(error instanceof Error ? error.message : String(error));
}

/**
 * Dry-run creates `object` every 100 ms until the API server refuses it because it could not
 * call a webhook.
 *
 * @throws {Error} when `deadline` passes first, or the API server refuses the probe for
 *   another reason (a probe that is not valid, say).
 */
async function untilWebhookRefuses(
  kubeConfig: KubeConfig,
  object: KubernetesObject,
  probe: { namespace: string; deadline: number },
): Promise<void> {
  const client = new Client({ kubeConfig });
  try {
    const [placed] = await inNamespace(client, probe.namespace, [object]);
    for (;;) {
      try {
        await client.create(structuredClone(placed as KubernetesObject), { dryRun: true });
      } catch (error) {
        if (isWebhookCallFailure(error)) return;
        throw new Error(
          `the webhook probe ${object.kind} ${object.metadata?.name ?? ''} was refused for another reason than its webhook (${error instanceof Error ? error.message : String(error)}): give a probe the API server admits but for the webhook`,
          { cause: error },
        );
      }
      if (Date.now() > probe.deadline)
        throw new Error(
          `the API server did not take up the webhook configurations in time: a dry-run create of the probe ${object.kind} ${object.metadata?.name ?? ''} was still admitted without calling its webhook (is the probe matched by a failurePolicy: Fail webhook's rules and selectors?)`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    client.close();
  }
}
