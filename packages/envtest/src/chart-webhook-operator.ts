import { mkdir } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import type { OperatorDefinition, runOperator } from '@ops/core';
import { type ChartInstallOptions, installChart, installedManagerArgs } from './chart-operator.js';
import { freePort } from './free-port.js';
import { webhooksByUrlPostRenderer } from './webhooks-by-url-post-renderer.js';

/** Options of {@link installWebhookChartOperator}. */
export interface WebhookChartOperatorOptions extends Omit<ChartInstallOptions, 'helmEnv'> {
  /** A scratch directory: the Helm plugin and the serving certificate go under it. */
  directory: string;
  /** The manager Deployment's API path, whose flags the operator runs with. */
  deployment: string;
  /** The operator, as its `main.ts` gives it to `runOperator`. */
  definition: OperatorDefinition;
  /**
   * `@ops/core`'s `runOperator`: passed in so that this package does not carry a second copy
   * of `@ops/core`.
   */
  runOperator: typeof runOperator;
}

/** An operator with webhooks installed by {@link installWebhookChartOperator}, running. */
export interface WebhookChartOperator {
  /** What `helm install` printed. */
  installed: string;
  /** The installed manager's flags (before the test's own were added). */
  args: string[];
  /** The post-renderer and values to repeat on `helm upgrade` (`chartLifecycle`'s `upgradeArgs`). */
  upgradeArgs: string[];
  /** Helm's environment for later steps (`HELM_PLUGINS`). */
  helmEnv: Record<string, string>;
  /** What the operator wrote (its log lines, and its error if it failed). */
  output: string[];
  /**
   * The port of 127.0.0.1 its webhook server listens on (the post-renderer's URLs name it):
   * where a test routes what Helm does not post-render, a CRD's conversion webhook in crds/.
   */
  webhookPort: number;
  /** The operator's `/metrics` page, served over plain HTTP on a free port of 127.0.0.1. */
  scrapeMetrics(): Promise<string>;
  /** Stops the operator as SIGTERM would; resolves with its exit code. Safe to call twice. */
  stop(): Promise<number>;
}

/**
 * An operator with admission webhooks as its Helm chart ships it, on a control plane that
 * cannot reach a Service (no kube-proxy): installs the chart with `helmArgs` and a post-renderer
 * ({@link webhooksByUrlPostRenderer}) pointing the webhook configurations at this process by
 * URL (everything else as the chart renders it), then runs the operator's entry point
 * (`runOperator(definition)`, its self-managed certificates also valid for 127.0.0.1) with the
 * flags of the installed Deployment, as the ServiceAccount the chart made (under the
 * chart's RBAC only), its webhook server on that URL's port, its health probes off and its
 * metrics on plain HTTP (the secured page is proven on its own). With the chart's
 * `webhook.certificates=self-managed`, the operator makes its certificate and injects its CA
 * into what Helm installed. Resolves once it runs; the first admission may wait for its CA.
 *
 * @throws {Error} Helm's error when the install fails; as {@link installedManagerArgs}.
 */
export async function installWebhookChartOperator(
  options: WebhookChartOperatorOptions,
): Promise<WebhookChartOperator> {
  const { directory, deployment, definition, runOperator, ...chart } = options;
  const webhookPort = await freePort();
  const metricsPort = await freePort();
  const plugins = join(directory, 'helm-plugins');
  const certDir = join(directory, 'serving-certs');
  await mkdir(certDir, { recursive: true });
  const renderer = await webhooksByUrlPostRenderer(plugins, { port: webhookPort });
  const upgradeArgs = [...(chart.helmArgs ?? []), ...renderer.args];
  const { installed, identity } = await installChart({
    ...chart,
    helmArgs: upgradeArgs,
    helmEnv: renderer.env,
  });
  const args = await installedManagerArgs(chart.env, deployment);
  const output: string[] = [];
  const stopping = new AbortController();
  const selfManaged = definition.selfManagedCertificates ?? {};
  const exited = runOperator(
    {
      ...definition,
      // The address in the webhook configurations' URL, besides the Service's names.
      selfManagedCertificates: {
        ...selfManaged,
        extraHosts: [...(selfManaged.extraHosts ?? []), '127.0.0.1'],
      },
    },
    {
      argv: [
        ...args.filter((arg) => !arg.includes('bind-address')),
        `--metrics-bind-address=127.0.0.1:${metricsPort}`,
        '--metrics-secure=false',
        '--health-probe-bind-address=0',
        `--kubeconfig=${identity.kubeconfigPath}`,
        `--leader-election-namespace=${chart.namespace}`,
        `--webhook-port=${webhookPort}`,
        `--webhook-cert-dir=${certDir}`,
      ],
      env: {},
      signal: stopping.signal,
      stdout: (text) => output.push(text),
      stderr: (text) => output.push(text),
      // In a Pod, read from the service account's namespace file.
      podNamespace: () => chart.namespace,
    },
  );
  return {
    installed,
    args,
    upgradeArgs,
    helmEnv: renderer.env,
    output,
    webhookPort,
    scrapeMetrics: () => httpGet(metricsPort, '/metrics'),
    stop: () => {
      stopping.abort();
      return exited;
    },
  };
}

function httpGet(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(body)
          : reject(new Error(`GET ${path} answered ${response.statusCode}: ${body}`)),
      );
    }).on('error', reject);
  });
}
