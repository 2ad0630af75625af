import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServingCertificates } from '@ops/apiserver';
import type { KubernetesObject } from '@ops/core';
import type { Environment } from '../environment.js';
import type { WebhookServerLike } from '../operator-harness.js';
import { WebhookProxy } from './webhook-proxy.js';

/**
 * The admission webhooks of a scenario's operator: its webhook configurations, and how an
 * incarnation of the operator makes its webhook server (as its entry point does).
 */
export interface ScenarioWebhooks {
  /**
   * The Mutating- and ValidatingWebhookConfigurations, as generated (`clientConfig.service`)
   * or with a URL: each run points them at its webhook proxy, with the run's CA. Their
   * `failurePolicy` (default `Fail`) and `timeoutSeconds` decide what an outage does.
   */
  configurations: KubernetesObject[];
  /**
   * Makes one incarnation's webhook server, its webhooks registered, serving the certificate
   * in `certDir` (`tls.crt`, `tls.key`, valid for 127.0.0.1) on any free port:
   * `new WebhookServer({ port: 0, host: '127.0.0.1', certDir }).register(...)`. The explorer
   * starts it with the incarnation and stops it with its crash or stop.
   */
  createServer(certDir: string): WebhookServerLike;
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
export class RunWebhooks {
  private readonly servers: Array<{ port: number | undefined }> = [];

  private constructor(
    private readonly webhooks: ScenarioWebhooks,
    readonly proxy: WebhookProxy,
    private readonly certDir: string,
  ) {}

  /**
   * Makes the certificate and the proxy and installs the configurations pointed at it.
   *
   * @throws {Error} as `env.installWebhooks` (a configuration without a webhook, say).
   */
  static async start(
    env: Pick<Environment, 'installWebhooks'>,
    webhooks: ScenarioWebhooks,
  ): Promise<RunWebhooks> {
    const certDir = await mkdtemp(join(tmpdir(), 'explore-webhooks-'));
    const proxy = await WebhookProxy.start();
    const run = new RunWebhooks(webhooks, proxy, certDir);
    try {
      const certificates = await createServingCertificates(['127.0.0.1']);
      await writeFile(join(certDir, 'tls.crt'), certificates.cert);
      await writeFile(join(certDir, 'tls.key'), certificates.key);
      await env.installWebhooks(webhooks.configurations, {
        port: proxy.port,
        caCert: certificates.caCert,
      });
    } catch (error) {
      await run.stop();
      throw error;
    }
    return run;
  }

  /** Starts an incarnation's webhook server and turns the proxy to it. */
  async serve(): Promise<ServedWebhooks> {
    const server = this.webhooks.createServer(this.certDir);
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

  /** Stops the proxy and removes the certificate. */
  async stop(): Promise<void> {
    await this.proxy.stop();
    await rm(this.certDir, { recursive: true, force: true });
  }
}

/** Whether an apply failed because the API server could not call a webhook (kube-apiserver's wording). */
export function isWebhookCallFailure(error: unknown): boolean {
  return /failed calling webhook/.test(error instanceof Error ? error.message : String(error));
}
