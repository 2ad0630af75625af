import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { KubernetesObject } from '@ops/core';
import YAML from 'yaml';
import { type WebhookUrlOptions, webhooksByUrl } from './webhooks-by-url.js';

const webhookKinds = new Set(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);

/** The name of the Helm plugin {@link webhooksByUrlPostRenderer} writes. */
export const webhooksByUrlPluginName = 'webhooks-by-url';

/**
 * `manifests` (a YAML stream, as Helm renders a release) with each webhook configuration's
 * `clientConfig.service` replaced by a URL on `options.port` ({@link webhooksByUrl}); every
 * other document as it was.
 *
 * @throws {Error} as {@link webhooksByUrl}; when a document is not valid YAML.
 */
export function renderWebhooksByUrl(manifests: string, options: WebhookUrlOptions): string {
  return YAML.parseAllDocuments(manifests)
    .map((document) => {
      const problem = document.errors[0];
      if (problem !== undefined)
        throw new Error(`a rendered manifest is not YAML: ${problem.message}`);
      const object = document.toJS() as KubernetesObject | null;
      if (object === null || !webhookKinds.has(object.kind ?? '')) return document.toString();
      return YAML.stringify(webhooksByUrl([object], options)[0]);
    })
    .join('---\n');
}

/** What to give Helm so that it runs the post-renderer: its arguments and environment. */
export interface HelmPostRenderer {
  /** `--post-renderer webhooks-by-url`: add them to `helm install` and `helm upgrade`. */
  args: string[];
  /** `HELM_PLUGINS`: the directory holding the plugin. */
  env: Record<string, string>;
}

/**
 * A Helm 4 post-renderer plugin (type `postrenderer/v1`) written into `directory`, which
 * points a chart's webhook configurations at the webhook server of the test process by URL
 * ({@link renderWebhooksByUrl}), since a control plane without kube-proxy cannot reach a
 * Service. Everything else is installed as the chart renders it, and as Helm applies a
 * release's post-rendered manifests on install and upgrade alike, `helm upgrade` and `helm
 * rollback` keep the URLs. Pass `caCert` only when the operator does not inject its own CA.
 *
 * @throws {Error} as {@link webhooksByUrl} for a bad port or host; when @ops/envtest's
 *   dist/webhooks-by-url-post-renderer-main.js is missing (build the package first).
 */
export async function webhooksByUrlPostRenderer(
  directory: string,
  options: WebhookUrlOptions,
): Promise<HelmPostRenderer> {
  // Checks the port and host now rather than inside Helm.
  webhooksByUrl(
    [{ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration' }],
    options,
  );
  // From src/ (tests) and dist/ (built) alike: the package's built program.
  const program = fileURLToPath(
    new URL('../dist/webhooks-by-url-post-renderer-main.js', import.meta.url),
  );
  if (!existsSync(program)) {
    throw new Error(
      `${program} is missing: build @ops/envtest first (pnpm turbo run build --filter @ops/envtest)`,
    );
  }
  const plugin = join(directory, webhooksByUrlPluginName);
  await mkdir(plugin, { recursive: true });
  const args = [program, String(options.port), ...(options.host ? [options.host] : [])];
  await writeFile(
    join(plugin, 'plugin.yaml'),
    YAML.stringify({
      apiVersion: 'v1',
      type: 'postrenderer/v1',
      name: webhooksByUrlPluginName,
      version: '0.1.0',
      runtime: 'subprocess',
      runtimeConfig: { platformCommand: [{ command: process.execPath, args }] },
    }),
  );
  return {
    args: ['--post-renderer', webhooksByUrlPluginName],
    env: { HELM_PLUGINS: directory },
  };
}
